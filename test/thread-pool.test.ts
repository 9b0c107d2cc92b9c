import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadPool } from '../src/threads/index.js';

const busyWorker = new URL('./helpers/busy-worker.mjs', import.meta.url).href;

/** Keeps this thread from reading its message ports for `ms`. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

test('a result posted by a task cancelled before it was read neither ends the process nor fails other tasks', async () => {
  const pool = threadPool({ filename: busyWorker, minThreads: 1, maxThreads: 1 });
  try {
    assert.equal(await pool.run(0), 'done');
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const cancelled = pool.run(20, { signal: controller.signal });
      // The worker finishes and posts its result while this thread is busy; the abort then
      // terminates the worker, and piscina still delivers the result it had posted.
      block(200);
      controller.abort();
      await assert.rejects(cancelled, { name: 'AbortError' });
      await sleep(50);
    }
    assert.equal(await pool.run(1), 'done');
  } finally {
    await pool.destroy();
  }
});

test('an error event that belongs to no task is heard by the pool, not thrown, and said with TAE_DEBUG', async () => {
  const pool = threadPool({ filename: busyWorker, minThreads: 0, maxThreads: 1 });
  const written: string[] = [];
  const write = process.stderr.write;
  const debug = process.env.TAE_DEBUG;
  try {
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof write;
    delete process.env.TAE_DEBUG;
    assert.doesNotThrow(() => pool.emit('error', new Error('close timed out')));
    assert.deepEqual(written, []);
    process.env.TAE_DEBUG = '1';
    assert.doesNotThrow(() => pool.emit('error', new Error('close timed out')));
    assert.deepEqual(written, ['tae: debug: worker pool: close timed out\n']);
  } finally {
    process.stderr.write = write;
    if (debug === undefined) delete process.env.TAE_DEBUG;
    else process.env.TAE_DEBUG = debug;
    await pool.destroy();
  }
});
