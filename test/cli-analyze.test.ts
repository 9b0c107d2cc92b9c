/**
 * `tae analyze`, the built binary on generated logs: the summary, the findings formats and the
 * exit codes are pinned; the JSON results carry exactly the insights the service's parse job
 * computes for the same file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { Engine } from '../src/service/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-analyze-'));
const example = writeEvtx(exampleEvents());
writeFileSync(join(dir, 'example.evtx'), example);
writeFileSync(join(dir, 'small.evtx'), smallLog());
const tae = (...args: string[]) => runTae(dir, args, { SOURCE_DATE_EPOCH: '1714557600' });

before(ensureBuilt);

async function jobInsights(): Promise<unknown[]> {
  const engine = await Engine.open({ memory: true });
  try {
    const { file_ids } = await engine.upload({ files: [{ name: 'example.evtx', data: example }] });
    const { id } = await engine.createParseJob({ file_ids: [file_ids[0]![0]], run_sigma_rules: true });
    for (;;) {
      const job = await engine.getJob({ job_id: id });
      if (job.status === 'Completed') return job.insights ?? [];
      assert.notEqual(job.status, 'Failed');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await engine.close();
  }
}

test('tae analyze --sigma prints the summary, writes results and report, and says nothing on stderr when not a terminal', async () => {
  const r = tae('analyze', 'example.evtx', '--sigma', '--out', 'results.json', '--html', 'report.html');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  matchesGolden('cli-analyze-summary.txt', r.stdout);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  assert.deepEqual(results.insights, await jobInsights());
  assert.equal(results.sigma.matches, results.sigma.detections.length);
  assert.ok(results.sigma.detections.every((d: { record_id: number }) => Number.isInteger(d.record_id)));
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.match(html, /Generated 2024-05-01 10:00:00 UTC/);
});

test('tae analyze without --sigma says so and lists key events only', () => {
  const r = tae('analyze', 'small.evtx');
  assert.equal(r.status, 0, r.stderr);
  matchesGolden('cli-analyze-small.txt', r.stdout);
});

test('tae analyze --jsonl, --csv and --timesketch print the key events, most important first', () => {
  const jsonl = tae('analyze', 'example.evtx', '--jsonl');
  assert.equal(jsonl.status, 0, jsonl.stderr);
  matchesGolden('cli-analyze-findings.jsonl', jsonl.stdout);
  const csv = tae('analyze', 'example.evtx', '--csv');
  matchesGolden('cli-analyze-findings.csv', csv.stdout);
  const ts = tae('analyze', 'example.evtx', '--timesketch');
  const first = JSON.parse(ts.stdout.split('\n')[0]!);
  assert.deepEqual(Object.keys(first).slice(0, 4), ['message', 'datetime', 'timestamp', 'timestamp_desc']);
  assert.equal(first.timestamp, Date.parse(first.datetime) * 1000);
  assert.equal(ts.stdout.trim().split('\n').length, jsonl.stdout.trim().split('\n').length);
});

test('tae analyze --fail-on exits 1 only when a finding reaches the level', () => {
  assert.equal(tae('analyze', 'example.evtx', '-q', '--fail-on', 'critical').status, 1);
  const small = tae('analyze', 'small.evtx', '-q', '--fail-on', 'critical');
  assert.equal(small.status, 0, small.stderr);
  assert.equal(small.stdout, '');
  assert.equal(tae('analyze', 'small.evtx', '-q', '--fail-on', 'high').status, 1);
});

test('tae analyze exit codes: 3 with one line per unreadable file (the others still analysed), 2 for usage', () => {
  const missing = tae('analyze', 'missing.evtx');
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, 'tae: cannot open missing.evtx: ENOENT\n');
  writeFileSync(join(dir, 'notes.txt'), 'not a log');
  const mixed = tae('analyze', 'small.evtx', 'notes.txt', '--out', 'mixed.json');
  assert.equal(mixed.status, 3);
  assert.equal(mixed.stderr.split('\n').length, 2, mixed.stderr);
  assert.match(mixed.stderr, /^tae: notes\.txt: /);
  assert.ok(existsSync(join(dir, 'mixed.json')));
  assert.match(mixed.stdout, /^Analysed 1 file, 7 records/);
  const badThreads = tae('analyze', 'small.evtx', '--threads', 'many');
  assert.equal(badThreads.status, 2);
  assert.equal(badThreads.stderr, 'tae: --threads must be an integer from 0 to 64 (got "many")\n');
  assert.equal(tae('analyze', 'small.evtx', '--json', '--csv').status, 2);
  assert.equal(tae('analyze', 'small.evtx', '--fail-on', 'severe').status, 2);
  assert.equal(tae('analyze').status, 2);
  const unwritable = tae('analyze', 'small.evtx', '--html', join(dir, 'no', 'such', 'dir', 'r.html'));
  assert.equal(unwritable.status, 3);
  assert.match(unwritable.stderr, /^tae: cannot write .*r\.html: ENOENT\n$/);
});

test('the report title names up to three files; more are counted with the first two named', () => {
  const copies = ['first.evtx', 'second.evtx', 'third.evtx', 'fourth.evtx'];
  for (const name of copies) writeFileSync(join(dir, name), smallLog());
  const titleOf = (...files: string[]) => {
    const r = tae('analyze', ...files, '--html', 'titled.html');
    assert.equal(r.status, 0, r.stderr);
    return /<title>([^<]*)<\/title>/.exec(readFileSync(join(dir, 'titled.html'), 'utf8'))?.[1];
  };
  assert.equal(titleOf(...copies.slice(0, 3)), 'Threat analysis: first.evtx, second.evtx, third.evtx');
  assert.equal(titleOf(...copies), 'Threat analysis: 4 files (first.evtx, second.evtx, …)');
  assert.equal(
    tae('analyze', ...copies, '--html', 'titled.html', '--title', 'Case 7').status === 0 &&
      /<title>Case 7<\/title>/.test(readFileSync(join(dir, 'titled.html'), 'utf8')),
    true,
  );
});
