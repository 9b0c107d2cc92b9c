/** The public parse API: same records whatever the thread count or source kind, validated options, cancellation. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { DecodePool, isTaeError, parseEvtx } from '../src/index.js';
import { EVTX_DIR, SKIP_NO_CORPUS } from './helpers/corpus.js';
import { smallLogEvents } from './helpers/small-log.js';

const SAMPLE = join(EVTX_DIR, 'evtx-crate-samples', 'security.evtx');

async function jsonLines(source: string | Uint8Array, threads: number, batchText = false): Promise<string[]> {
  const parse = parseEvtx(source, { threads, outputs: ['json'], batchText });
  const out: string[] = [];
  for await (const c of parse.chunks()) {
    if (c.text) out.push(...Buffer.from(c.text).toString('utf8').split('\n').filter(Boolean));
    else for (const r of c.records) out.push(r.json!);
  }
  return out;
}

test('threads 0, 1 and 2 and file or buffer input give the same records in the same order', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const reference = await jsonLines(SAMPLE, 0);
  assert.equal(reference.length, 2261);
  assert.deepEqual(await jsonLines(SAMPLE, 1), reference);
  assert.deepEqual(await jsonLines(SAMPLE, 2), reference);
  assert.deepEqual(await jsonLines(readFileSync(SAMPLE), 2), reference);
  assert.deepEqual(await jsonLines(readFileSync(SAMPLE), 0, true), reference);
  assert.deepEqual(await jsonLines(SAMPLE, 2, true), reference);
});

/** Each chunk's text copied when it arrives, and the same texts read again from the views kept. */
async function batchTexts(threads: number, recycleText: boolean) {
  const parse = parseEvtx(SAMPLE, { threads, outputs: ['json'], batchText: true, recycleText });
  const copies: string[] = [];
  const views: Uint8Array[] = [];
  for await (const c of parse.chunks()) {
    copies.push(Buffer.from(c.text!).toString('utf8'));
    views.push(c.text!);
  }
  const reread = views.map((v) => Buffer.from(v).toString('utf8'));
  return { text: copies.join(''), copies, reread, buffers: new Set(views.map((v) => v.buffer)).size };
}

test('recycleText gives the same text, and its buffers are handed back for reuse (kept views go stale)', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const reference = (await batchTexts(0, false)).text;
  assert.equal(reference.split('\n').filter(Boolean).length, 2261);
  for (const threads of [0, 1, 2]) {
    const kept = await batchTexts(threads, false);
    assert.equal(kept.text, reference);
    assert.deepEqual(kept.reread, kept.copies, 'without recycling every view stays valid');
    const recycled = await batchTexts(threads, true);
    assert.equal(recycled.text, reference, `threads ${threads}`);
    // Inline: one buffer rewritten per chunk. One worker (2 spans in flight, the file has 3):
    // the first span's buffer went back for the third. Two workers never need a spare here.
    if (threads === 0) assert.equal(recycled.buffers, 1);
    if (threads < 2) assert.notEqual(recycled.reread[0], recycled.copies[0], `threads ${threads}`);
  }
});

test('a Buffer source is not modified or detached by pooled decoding', { skip: SKIP_NO_CORPUS }, async () => {
  const bytes = readFileSync(SAMPLE);
  const copy = Buffer.from(bytes);
  await jsonLines(bytes, 2);
  assert.equal(bytes.byteLength, copy.byteLength);
  assert.ok(bytes.equals(copy));
});

test('a shared pool serves several parses and stays usable', { skip: SKIP_NO_CORPUS }, async () => {
  const pool = new DecodePool(2);
  try {
    const counts = await Promise.all(
      [0, 1, 2].map(async () => {
        let n = 0;
        for await (const _ of parseEvtx(SAMPLE, { pool })) n++;
        return n;
      }),
    );
    assert.deepEqual(counts, [2261, 2261, 2261]);
  } finally {
    await pool.close();
  }
});

test('invalid options are rejected at the door with a message naming the option', () => {
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ threads: -1 }, /options\.threads must be an integer from 0 to 64/],
    [{ threads: 1.5 }, /options\.threads/],
    [{ outputs: [] }, /options\.outputs must be a non-empty array/],
    [{ outputs: ['html'] }, /options\.outputs/],
    [{ timePrecision: 'ms' }, /options\.timePrecision/],
  ];
  for (const [options, message] of bad) {
    assert.throws(
      () => parseEvtx('x.evtx', options as never),
      (e: unknown) => isTaeError(e) && e.code === 'INVALID_ARGUMENT' && message.test(e.message),
    );
  }
  assert.throws(() => parseEvtx(42 as never), /source must be a file path or a Uint8Array/);
});

test('an aborted signal stops an inline parse with a CANCELLED error', { skip: SKIP_NO_CORPUS }, async () => {
  const controller = new AbortController();
  const parse = parseEvtx(SAMPLE, { signal: controller.signal });
  let n = 0;
  await assert.rejects(
    (async () => {
      for await (const _ of parse) if (++n === 10) controller.abort();
    })(),
    (e: unknown) => isTaeError(e) && e.code === 'CANCELLED',
  );
  assert.ok(n < 2261);
});

test('a parse can be iterated once; a second iteration is a clear error', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const parse = parseEvtx(SAMPLE);
  for await (const _ of parse);
  await assert.rejects(
    (async () => {
      for await (const _ of parse);
    })(),
    /iterated only once/,
  );
});

test('stats and the header describe the file', { skip: SKIP_NO_CORPUS }, async () => {
  const parse = parseEvtx(SAMPLE);
  for await (const _ of parse);
  assert.equal(parse.stats.records, 2261);
  assert.equal(parse.stats.chunks, 33);
  assert.equal(parse.header?.majorVersion, 3);
  assert.deepEqual(parse.diagnostics, []);
});

test("record.recordNumber is the record header's number and event.recordId the Windows EventRecordID", async () => {
  const bytes = writeEvtx(smallLogEvents());
  // The first record sits after the file header (4 KiB) and its chunk's header (512 bytes):
  // magic, size, then the header's record number (u64), renumbered here apart from its event.
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  assert.equal(view.getUint32(4608, true), 0x00002a2a);
  view.setBigUint64(4608 + 8, 900n, true);
  const first = await parseEvtx(bytes, { outputs: ['event'] })
    [Symbol.asyncIterator]()
    .next();
  assert.equal(first.done, false);
  assert.equal(first.value!.recordNumber, 900);
  assert.equal(first.value!.event!.recordId, 1);
});
