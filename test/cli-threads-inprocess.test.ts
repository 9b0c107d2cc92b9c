/**
 * Threads by default (issue 46), in this process where coverage sees it (test/cli-threads.test.ts
 * runs the built CLI): `tae sigma`'s run (sigma-run.ts), whose workers send back only the
 * matched events and count the others, and `tae analyze`'s (analyze-run.ts), whose workers
 * digest each event, report what the same run on this thread reports, in the same order; so do
 * the summary, the finding records and the `-o` document made of them (analyze-output.ts). The
 * rules load through the rule cache (src/rules/cache): a second load is a hit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findingRecords, resultsDocument, summaryText } from '../src/cli/analyze-output.js';
import { type AnalyzeResult, analyzeFiles } from '../src/cli/analyze-run.js';
import { loadSigmaRules, type SigmaRules } from '../src/cli/sigma-rules.js';
import { runSigmaOver } from '../src/cli/sigma-run.js';
import { parseEvtx } from '../src/parse/index.js';
import { INLINE_BELOW_BYTES } from '../src/pipeline/index.js';
import { ruleCacheStats } from '../src/rules/index.js';
import { manyEventsLog, smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-threads-inprocess-'));
const LARGE = join(dir, 'large.evtx');
const SMALL = join(dir, 'small.evtx');
// 9 MiB or so: past the size from which a file goes to the pool.
writeFileSync(LARGE, manyEventsLog(4_800));
writeFileSync(SMALL, smallLog());
const FILES = [LARGE, SMALL];
const CACHE = join(dir, 'cache');
const DATA = join(dir, 'data');

/** The builtin pack's rules (a data directory of their own), through the rule cache in CACHE. */
const builtinRules = () => loadSigmaRules({ data: DATA, cache: CACHE });

async function recordsOf(file: string): Promise<number> {
  let n = 0;
  for await (const r of parseEvtx(file, { outputs: ['event'] })) if (r.event !== undefined) n++;
  return n;
}

let rules: SigmaRules;

test('the large file goes to the pool; the builtin rules load, and load again from the cache', async () => {
  assert.ok(readFileSync(LARGE).length >= INLINE_BELOW_BYTES);
  const before = { ...ruleCacheStats };
  const first = await builtinRules();
  first.finish();
  rules = await builtinRules();
  assert.equal(ruleCacheStats.misses - before.misses, 1, 'the first load parsed the texts');
  assert.equal(ruleCacheStats.hits - before.hits, 1, 'the second found them in the cache');
  assert.equal(rules.label, first.label);
  assert.deepEqual(
    rules.loaded.rules.map((r) => r.id),
    first.loaded.rules.map((r) => r.id),
  );
  assert.ok(rules.portable.version.length > 0, 'the portable form for the workers is made');
});

test('tae sigma in process: two workers report the matches of this thread, in order, every event counted', async () => {
  const inline = await runSigmaOver({ inputs: FILES, rules, threads: 0 });
  const progress: number[] = [];
  const pooled = await runSigmaOver({
    inputs: FILES,
    rules,
    threads: 2,
    onProgress: (_file, events) => progress.push(events),
  });
  const rows = (r: typeof inline) => r.detections.kept.map((m) => [m.rule.id, m.file, m.recordId]);
  assert.ok(inline.detections.total > 100, 'the builtin rules match the generated events');
  assert.ok(inline.detections.total < inline.events, 'most events match no rule: the workers skip them');
  assert.deepEqual(rows(pooled), rows(inline));
  assert.equal(pooled.detections.total, inline.detections.total);
  const events = (await recordsOf(LARGE)) + (await recordsOf(SMALL));
  assert.equal(inline.events, events);
  assert.equal(pooled.events, events, 'the events a worker did not send are counted');
  assert.ok(progress.length > 0 && progress.every((n, i) => i === 0 || n > progress[i - 1]!));
  assert.deepEqual(pooled.failures, []);
  assert.deepEqual(pooled.diagnostics, inline.diagnostics);
});

test('tae sigma in process: an unreadable input is a failure naming it, the others still run', async () => {
  const missing = join(dir, 'missing.evtx');
  const r = await runSigmaOver({ inputs: [SMALL, missing, LARGE], rules, threads: 2 });
  assert.equal(r.failures.length, 1);
  assert.equal(r.failures[0]!.file, missing);
  assert.match(r.failures[0]!.message, /missing\.evtx/);
  assert.ok(r.detections.total > 100);
});

test('tae analyze in process: digested on two workers, the same insights, matches, summary and document', async () => {
  const inline = await analyzeFiles({ files: FILES, sigma: rules, threads: 0 });
  const pooled = await analyzeFiles({ files: FILES, sigma: rules, threads: 2 });
  const plain = (r: AnalyzeResult) => JSON.parse(JSON.stringify(r.insights));
  assert.deepEqual(plain(pooled), plain(inline));
  assert.equal(pooled.records, inline.records);
  assert.deepEqual(
    pooled.detections.kept.map((m) => [m.rule.id, m.file, m.recordId]),
    inline.detections.kept.map((m) => [m.rule.id, m.file, m.recordId]),
  );
  const summary = summaryText(pooled, FILES, rules, ['out.json']);
  assert.equal(summary, summaryText(inline, FILES, rules, ['out.json']));
  assert.match(summary, new RegExp(`^Analysed 2 files, ${pooled.records} records\\n`));
  assert.match(summary, /\nDetections by level:\n/);
  assert.match(summary, /\nTop Sigma rules:\n/);
  assert.match(summary, /\nWrote out.json\n$/);
  const findings = findingRecords(pooled.insights, pooled.detections);
  assert.deepEqual(findings.rows, findingRecords(inline.insights, inline.detections).rows);
  const doc = resultsDocument(pooled, FILES, rules);
  assert.deepEqual(
    JSON.parse(JSON.stringify(doc)),
    JSON.parse(JSON.stringify(resultsDocument(inline, FILES, rules))),
  );
  assert.equal(doc.sigma?.matches, pooled.detections.total);
  assert.equal(doc.sigma?.detections.length, pooled.detections.kept.length);
});

test('tae analyze in process: without Sigma the summary says so; an unreadable file is named', async () => {
  const missing = join(dir, 'gone.evtx');
  const r = await analyzeFiles({ files: [SMALL, missing], threads: 2 });
  assert.equal(r.failures.length, 1);
  const summary = summaryText(r, [SMALL, missing], undefined, []);
  assert.match(summary, /^Analysed 1 file, /);
  assert.match(summary, /\nUnreadable: .*gone\.evtx/);
  assert.match(summary, /\nSigma: not run \(add --sigma\)\n/);
  assert.equal(resultsDocument(r, [SMALL], undefined).sigma, null);
  const none = await analyzeFiles({ files: [missing], threads: 0 });
  assert.equal(none.records, 0);
  assert.ok(none.insights.length > 0 && none.insights.every((i) => 'Error' in i || 'Table' in i));
});
