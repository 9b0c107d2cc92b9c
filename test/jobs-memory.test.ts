/**
 * A job's runner collects garbage once its analysis is done, only where the process exposes
 * `gc` (the CLI's analysing commands): elsewhere (a library user, `tae serve`) it does nothing.
 */
import assert from 'node:assert/strict';
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
