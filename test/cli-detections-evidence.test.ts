/**
 * Detections keep evidence with bounded memory: only for kept or sampled matches, for the first
 * EVIDENCE_PER_RULE matches of each rule, and none for correlations; `details` in the match
 * rows, structured evidence in `tae analyze -o`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { resultsDocument } from '../src/cli/analyze-output.js';
import { analyzeFiles } from '../src/cli/analyze-run.js';
import { Detections, EVIDENCE_PER_RULE, MatchStream, matchRecords } from '../src/cli/detections.js';
import { Output, writeRecords } from '../src/cli/output.js';
import { loadSigmaRules } from '../src/cli/sigma-rules.js';
import { runSigmaOver } from '../src/cli/sigma-run.js';
import { type EvidenceField, eventFromObject, loadRules } from '../src/sigma/index.js';

const [noisy, rare] = loadRules(
  ['noisy', 'rare']
    .map(
      (name, i) =>
        `title: ${name}\nid: 00000000-0000-4000-8000-00000000000${i}\nlogsource: {product: windows, category: process_creation}\ndetection:\n  s:\n    CommandLine|contains: '${name}'\n  condition: s\n`,
    )
    .join('---\n'),
  'r.yml',
).rules;

test('evidence stops after EVIDENCE_PER_RULE matches of a rule, and a rarer rule still gets its own', () => {
  const d = new Detections(1_000_000, 200);
  const event = eventFromObject({ CommandLine: 'run noisy rare', Image: 'C:\\x.exe' });
  for (let i = 0; i < EVIDENCE_PER_RULE + 50; i++) d.add(noisy!, { recordId: i + 1, timestamp: i }, event);
  d.add(rare!, { recordId: 99_999, timestamp: 1 }, event);
  assert.equal(d.kept.filter((m) => m.evidence !== undefined).length, EVIDENCE_PER_RULE + 1);
  assert.equal(d.evidenceOmitted, 50);
  assert.equal(d.kept.at(-1)!.evidence![0]!.name, 'CommandLine');
  const rows = matchRecords(d).rows;
  assert.equal(rows[0]!.details, 'CommandLine: run noisy rare ¦ Image: C:\\x.exe');
  assert.equal(rows[EVIDENCE_PER_RULE]!.details, null);
});

test('matches neither kept nor sampled are counted and not given evidence', () => {
  const d = new Detections(2, 1);
  const event = eventFromObject({ CommandLine: 'noisy' });
  for (let i = 0; i < 10; i++) d.add(noisy!, { recordId: i + 1, timestamp: i }, event);
  assert.equal(d.total, 10);
  assert.equal(d.kept.length, 2);
  assert.equal(d.rules()[0]!.withEvidence, 2);
  assert.equal(d.rules()[0]!.sample[0], d.kept[0]); // one object, not a copy
});

test('tae analyze -o: every kept match carries its structured evidence, the matched text placed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-evidence-o-'));
  const file = join(dir, 'example.evtx');
  writeFileSync(file, writeEvtx(exampleEvents()));
  const sigma = await loadSigmaRules({ data: join(dir, 'no-library') });
  const result = await analyzeFiles({ files: [file], sigma, threads: 0 });
  const doc = resultsDocument(result, [file], sigma);
  type Row = { rule_title: string; event_id: number; evidence: readonly EvidenceField[] | null };
  const rows = doc.sigma!.detections as unknown as Row[];
  const encoded = rows.filter((d) => d.rule_title === 'PowerShell Started With an Encoded Command');
  assert.deepEqual(
    encoded.map((d) => d.event_id),
    [1, 4688],
  );
  for (const d of encoded) {
    const cmd = d.evidence!.find((f) => f.name === 'CommandLine')!;
    assert.equal(cmd.matched, true);
    assert.deepEqual(
      cmd.spans.map(([s, e]) => cmd.value.slice(s, e)),
      [' -enc '],
    );
    assert.ok(!('details' in d));
  }
  // The 4688 match names 4688's own field for the image.
  assert.ok(encoded[1]!.evidence!.some((f) => f.name === 'NewProcessName' && f.matched));
  assert.ok(rows.every((d) => Array.isArray(d.evidence) && d.evidence.length > 0));
});

test('a run that keeps no matches (the tae sigma table) still counts each one and samples one per rule', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-evidence-table-'));
  const file = join(dir, 'example.evtx');
  writeFileSync(file, writeEvtx(exampleEvents()));
  const rules = await loadSigmaRules({ data: join(dir, 'no-library') });
  const all = await runSigmaOver({ inputs: [file], rules, threads: 0 });
  const lean = await runSigmaOver({ inputs: [file], rules, threads: 0, maxKept: 0, maxSample: 1 });
  assert.ok(all.detections.total > 0);
  assert.equal(lean.detections.total, all.detections.total);
  assert.equal(lean.detections.kept.length, 0);
  const counts = (d: Detections) => d.rules().map((h) => [h.rule.title, h.count, h.sample.length]);
  assert.deepEqual(
    counts(lean.detections),
    counts(all.detections).map(([title, count]) => [title, count, 1]),
  );
  assert.deepEqual(
    lean.detections.rules().map((h) => h.sample[0]!.evidence),
    all.detections.rules().map((h) => h.sample[0]!.evidence),
  );
});

test('a match stream writes, batch by batch, what the kept matches print, in every listing format', async () => {
  const event = eventFromObject({ CommandLine: 'run noisy rare', Image: 'C:\\x.exe' });
  const add = (d: Detections) => {
    for (let i = 0; i < 2_500; i++)
      d.add(i % 3 === 0 ? rare! : noisy!, { recordId: i + 1, timestamp: i * 1000 }, event);
  };
  for (const format of ['json', 'jsonl', 'csv', 'timesketch'] as const) {
    const kept = new Detections(1_000_000, 0);
    add(kept);
    const expected = collected();
    await writeRecords(matchRecords(kept), format, new Output(expected.sink));
    const streamed = collected();
    const stream = new MatchStream(format, new Output(streamed.sink));
    const live = new Detections(1, 0, stream.add);
    add(live);
    assert.equal(live.kept.length, 0, 'the stream holds the matches, not the detections');
    assert.equal(await stream.end(), 2_500);
    assert.equal(streamed.text(), expected.text(), format);
  }
  const empty = collected();
  await new MatchStream('json', new Output(empty.sink)).end();
  assert.equal(empty.text(), '[]\n');
});

function collected(): { sink: Writable; text: () => string } {
  const parts: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      parts.push(String(chunk));
      done();
    },
  });
  return { sink, text: () => parts.join('') };
}
