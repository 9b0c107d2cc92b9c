/**
 * A job's runner collects garbage once its analysis is done, only where the process exposes
 * `gc` (the CLI's analysing commands): elsewhere (a library user, `tae serve`) it does nothing.
 * The collection gives memory back: it shrinks the young generation a busy analysis grew.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collectGarbage } from '../src/jobs/memory.js';
import { growYoung, runModule, YOUNG } from './helpers/young-generation.js';

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
const GROW_THEN_COLLECT = `${YOUNG}
import { collectGarbage } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'jobs', 'memory.ts'))};
${growYoung(2e6, 50_000)}
gc();
const plain = young();
collectGarbage();
console.log(JSON.stringify({ plain, after: young() }));
`;

test('collectGarbage shrinks the young generation a plain collection leaves grown', () => {
  const { plain, after } = runModule<{ plain: number; after: number }>(
    ['--expose-gc', '--max-semi-space-size=16'],
    GROW_THEN_COLLECT,
  );
  assert.ok(plain >= 16 << 20, `the young generation grew to ${plain} bytes`);
  assert.ok(after <= plain / 8, `after collectGarbage: ${after} bytes of ${plain}`);
});
