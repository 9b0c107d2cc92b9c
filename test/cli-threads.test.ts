/**
 * The commands that decode EVTX files use the cores by default (issue 46): a pool of
 * min(cores, 8) worker threads for the files of 8 MiB or more, `-t N` instead, `-t 0` none;
 * whichever, the same output, matches in the same order with the same counts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { manyEventsLog, smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-threads-'));
// 9 MiB or so: past the size from which a file goes to the pool.
writeFileSync(join(dir, 'large.evtx'), manyEventsLog(4_800));
writeFileSync(join(dir, 'small.evtx'), smallLog());
const FILES = ['large.evtx', 'small.evtx'];
const CORES = Math.min(availableParallelism(), 8);
const tae = (...args: string[]) => {
  ensureBuilt();
  const r = runTae(dir, args, { TAE_DEBUG: '1' });
  assert.equal(r.status, 0, r.stderr);
  return r;
};
/** The pool a run started, from its debug line: how many workers, or null for none. */
const poolOf = (stderr: string): number | null => {
  const m = /tae: debug: decode pool: (\d+) worker thread/.exec(stderr);
  return m ? Number(m[1]) : null;
};

test('the large file is large enough to go to the pool', () => {
  assert.ok(readFileSync(join(dir, 'large.evtx')).length >= 8 * 1024 * 1024);
});

test('tae sigma: the cores by default, -t N, -t 0 none; the same matches in the same order', () => {
  const inline = tae('sigma', '--jsonl', '-t', '0', ...FILES);
  const pooled = tae('sigma', '--jsonl', ...FILES);
  const one = tae('sigma', '--jsonl', '-t', '1', ...FILES);
  assert.equal(poolOf(inline.stderr), null);
  assert.equal(poolOf(pooled.stderr), CORES);
  assert.equal(poolOf(one.stderr), 1);
  assert.ok(inline.stdout.split('\n').length > 10, 'the builtin rules match the generated events');
  assert.equal(pooled.stdout, inline.stdout);
  assert.equal(one.stdout, inline.stdout);
  // The table: every rule's count, first and last time.
  assert.equal(tae('sigma', ...FILES).stdout, tae('sigma', '-t', '0', ...FILES).stdout);
});

test('tae analyze --sigma: the cores by default; the same results as on this thread', () => {
  const results = () => readFileSync(join(dir, 'results.json'), 'utf8');
  const inline = tae('analyze', '--sigma', '-t', '0', '-o', 'results.json', ...FILES);
  const inlineResults = results();
  const pooled = tae('analyze', '--sigma', '-o', 'results.json', ...FILES);
  assert.equal(poolOf(inline.stderr), null);
  assert.equal(poolOf(pooled.stderr), CORES);
  assert.equal(pooled.stdout, inline.stdout);
  assert.equal(results(), inlineResults);
  assert.match(inlineResults, /"rule_title"/);
});

test('tae parse: the cores by default for records, this thread for --summary; the same output', () => {
  const inline = tae('parse', '-t', '0', ...FILES);
  const pooled = tae('parse', ...FILES);
  assert.equal(poolOf(inline.stderr), null);
  assert.equal(poolOf(pooled.stderr), CORES);
  assert.equal(pooled.stdout, inline.stdout);
  const summary = tae('parse', '--summary', ...FILES);
  assert.equal(poolOf(summary.stderr), null);
  assert.equal(tae('parse', '--summary', '-t', '2', ...FILES).stdout, summary.stdout);
});
