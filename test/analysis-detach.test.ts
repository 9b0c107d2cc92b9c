/**
 * `detach` (src/analysis/text.ts): what a builder keeps of a longer text holds none of it. A
 * digest's fields are sliced from larger strings, and V8 slices share their parent's memory.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { detach } from '../src/analysis/text.js';
import { runModule } from './helpers/young-generation.js';

test('detach clips and keeps the text', () => {
  assert.equal(detach('short', 200), 'short');
  assert.equal(detach('a'.repeat(150), 200), 'a'.repeat(150));
  assert.equal(detach('b'.repeat(500), 200).length <= 201, true);
});

const KEEP_SLICES = `
import { detach } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'analysis', 'text.ts'))};
const used = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const before = used();
const kept = [];
for (let i = 0; i < 2000; i++) {
  // A 10,000-character parent made at run time (a literal would stay alive in the code).
  const parent = String(i).padStart(10_000, 'p');
  kept.push(detach(parent.slice(9_900), 200));
}
console.log(JSON.stringify({ bytes: used() - before, sample: kept[7] }));
`;

test('what detach keeps of a short slice holds none of the string it was sliced from', () => {
  const r = runModule<{ bytes: number; sample: string }>(['--expose-gc'], KEEP_SLICES);
  assert.equal(r.sample, `${'p'.repeat(99)}7`);
  // Two thousand 100-character texts: about 0.3 MB; their parents would be 20 MB (one byte each).
  assert.ok(r.bytes < 2 * 2 ** 20, `${(r.bytes / 2 ** 20).toFixed(1)} MiB kept`);
});
