/**
 * The decode pool lets its workers go when idle (a job's index completion, a service between
 * jobs: about 50 MiB of heap each) and starts them again for the next task, decoding alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { DecodePool, parseEvtx } from '../src/index.js';
import { smallLogEvents } from './helpers/small-log.js';

const LOG = Buffer.from(writeEvtx(smallLogEvents()));

async function records(pool: DecodePool): Promise<string[]> {
  const out: string[] = [];
  for await (const c of parseEvtx(LOG, { pool, outputs: ['json'] }).chunks())
    for (const r of c.records) out.push(r.json!);
  return out;
}

test('an idle decode pool lets its workers go and starts them again for the next file', async () => {
  const pool = new DecodePool(2, undefined, 100);
  try {
    assert.equal(pool.running, false, 'no worker before the first task');
    const first = await records(pool);
    assert.ok(first.length > 0);
    assert.equal(pool.running, true);
    await sleep(400);
    assert.equal(pool.running, false, 'workers let go after the idle time');
    assert.deepEqual(await records(pool), first);
    assert.equal(pool.running, true);
  } finally {
    await pool.close();
  }
  assert.equal(pool.running, false);
  await assert.rejects(records(pool), /closed/);
});

test('a pool kept busy does not let its workers go between tasks', async () => {
  const pool = new DecodePool(1, undefined, 200);
  try {
    for (let i = 0; i < 5; i++) {
      await records(pool);
      await sleep(20);
      assert.equal(pool.running, true, `after file ${i + 1}`);
    }
  } finally {
    await pool.close();
  }
});

test('release lets an idle pool go at once, and the next file starts it again', async () => {
  const pool = new DecodePool(1, undefined, 60_000);
  try {
    const first = await records(pool);
    assert.equal(pool.running, true);
    pool.release();
    assert.equal(pool.running, false, 'released without waiting for the idle time');
    assert.deepEqual(await records(pool), first);
  } finally {
    await pool.close();
  }
});
