/**
 * The compiled renderers (compiled.ts, compiled-event.ts, write-value.ts, markers.ts) exist for
 * speed; the tree renderers are the reference. For every record of writer-generated logs (every
 * value type, hostile text, every body layout) and of the corpus when present, both must give
 * the same bytes: crate-precision JSON, 100 ns JSON, XML and the flat event (its numbers too).
 * The comparison itself is in helpers/renderer-differential.ts (`npm run fuzz -- --mode
 * differential` runs it on new seeds).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { FILE_HEADER_SIZE } from '../src/evtx/file-header.js';
import { CHUNK_SIZE } from '../src/evtx/index.js';
import { corpusIndex, SKIP_NO_CORPUS } from './helpers/corpus.js';
import { addTallies, compareChunk, newTally, type Tally } from './helpers/renderer-differential.js';

const GENERATED = 100_000;
const SEED = 20261125;

/** Part [from, to) of the generated stream, compared on a thread of its own. */
function comparePart(from: number, to: number): Promise<Tally> {
  const worker = new Worker(new URL('./helpers/renderer-differential-worker.ts', import.meta.url), {
    workerData: { seed: SEED, from, to },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`comparison thread exited (${code})`)));
  });
}

// The test files run one at a time, so one comparison on each core: 100,000 records took 70 s
// of `npm test` on one thread of this 2-core VM.
test('compiled and tree renderers agree byte for byte on 100,000 generated records of every value type', async () => {
  const threads = Math.max(1, Math.min(4, availableParallelism()));
  const bounds = Array.from({ length: threads + 1 }, (_, i) => Math.round((i * GENERATED) / threads));
  const t = addTallies(await Promise.all(bounds.slice(1).map((to, i) => comparePart(bounds[i]!, to))));
  assert.deepEqual(t.mismatches, []);
  assert.equal(t.records, GENERATED);
  // The comparison means something only where the fast paths ran. Text runs compiled nearly
  // everywhere; the flat event falls back to the tree for shapes it does not compile (79,551
  // of these 100,000 records compile), so its floor is lower.
  const floors = { json: 0.95, json100ns: 0.95, xml: 0.95, event: 0.75 };
  for (const [what, n] of Object.entries(t.compiled))
    assert.ok(
      n >= floors[what as keyof typeof floors] * t.records,
      `${what}: compiled for ${n} of ${t.records}`,
    );
});

test('compiled and tree renderers agree byte for byte on every corpus record', {
  skip: SKIP_NO_CORPUS,
}, () => {
  const t = newTally();
  for (const f of corpusIndex()) {
    const bytes = readFileSync(f.path);
    for (let i = 0, at = FILE_HEADER_SIZE; at + CHUNK_SIZE <= bytes.length; i++, at += CHUNK_SIZE)
      compareChunk(bytes.subarray(at, at + CHUNK_SIZE), i, f.rel, t);
  }
  assert.deepEqual(t.mismatches, []);
  assert.ok(t.compiled.json >= 0.9 * t.records, `json compiled for ${t.compiled.json} of ${t.records}`);
});
