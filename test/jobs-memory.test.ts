/**
 * A job's runner collects garbage once its analysis is done, only where the process exposes
 * `gc` (the CLI's analysing commands): elsewhere (a library user, `tae serve`) it does nothing.
 * The collection gives memory back: it shrinks the young generation a busy analysis grew.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { collectGarbage } from '../src/jobs/memory.js';

test('collectGarbage runs the exposed gc once, and is a no-op where none is exposed', () => {
  const g = globalThis as { gc?: unknown };
  const had = g.gc;
  try {
    let calls = 0;
    g.gc = () => calls++;
    collectGarbage();
    assert.equal(calls, 1);
    delete g.gc;
    assert.doesNotThrow(() => collectGarbage());
    g.gc = 'not a function';
    assert.doesNotThrow(() => collectGarbage());
  } finally {
    g.gc = had;
  }
});

/** A process that grows its young generation, then reports it after a plain gc and after collectGarbage. */
const GROW_THEN_COLLECT = `
import { getHeapSpaceStatistics } from 'node:v8';
import { collectGarbage } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'jobs', 'memory.ts'))};
const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
let live = [];
for (let i = 0; i < 2e6; i++) {
  live.push({ i, s: 'x' + i });
  if (live.length > 50_000) live = [];
}
live = null;
gc();
const plain = young();
collectGarbage();
console.log(JSON.stringify({ plain, after: young() }));
`;

test('collectGarbage shrinks the young generation a plain collection leaves grown', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--expose-gc',
      '--max-semi-space-size=16',
      '--input-type=module',
      '-e',
      GROW_THEN_COLLECT,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  const { plain, after } = JSON.parse(r.stdout) as { plain: number; after: number };
  assert.ok(plain >= 16 << 20, `the young generation grew to ${plain} bytes`);
  assert.ok(after <= plain / 8, `after collectGarbage: ${after} bytes of ${plain}`);
});
