/**
 * A pooled parse under a long-lived signal (a job's) leaves no listener on it per span: the
 * listeners piscina added for each task kept the spans' results alive through the main thread's
 * young collections. Cancelling still stops the parse at the next span, and the pool's workers
 * stay up for the next file.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { randomEvents } from '../fixtures/large-events.js';
import { DecodePool, isTaeError, parseEvtx } from '../src/index.js';

function log(events: number): Uint8Array {
  const source = randomEvents(7);
  return writeEvtx(Array.from({ length: events }, () => source.next().value));
}

test('a pooled parse adds no abort listener per span to its signal, and a cancel stops it at the next span', async () => {
  const bytes = log(3000);
  const pool = new DecodePool(2);
  try {
    const controller = new AbortController();
    const parse = parseEvtx(bytes, { pool, signal: controller.signal });
    let chunks = 0;
    let listenersSeen = 0;
    await assert.rejects(
      (async () => {
        for await (const _ of parse.chunks()) {
          listenersSeen = Math.max(listenersSeen, getEventListeners(controller.signal, 'abort').length);
          if (++chunks === 3) controller.abort();
        }
      })(),
      (e: unknown) => isTaeError(e) && e.code === 'CANCELLED',
    );
    assert.equal(listenersSeen, 0, 'spans in flight hold no listener on the signal');
    let total = 0;
    for await (const _ of parseEvtx(bytes, { pool }).chunks()) total++;
    assert.ok(total > 8, `the log spans several tasks (${total} chunks)`);
    // Aborted at the third chunk: at most the spans already in flight (4 of 2 chunks) came after it.
    assert.ok(chunks <= 3 + 8, `stopped at the next span (${chunks} of ${total} chunks)`);
  } finally {
    await pool.close();
  }
});
