/** Stored file contents read at offsets: a private file decrypted a segment at a time. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { newDataKey } from '../src/crypto/index.js';
import { isTaeError } from '../src/errors/index.js';
import { parseEvtx, parseEvtxReader } from '../src/parse/index.js';
import { type BlobStore, diskBlobs, memoryBlobs, openContent, writeContent } from '../src/store/index.js';

async function store(blobs: BlobStore, id: string, data: Uint8Array, dataKey: Buffer | null) {
  const { writer } = await writeContent(blobs, {
    id,
    data,
    dataKey,
    maxBytes: 1 << 30,
    deadline: Date.now() + 60_000,
  });
  await writer.commit(id);
}

async function readAll(
  reader: { read(into: Uint8Array, offset: number): Promise<number> },
  pieces: number[],
) {
  const parts: Buffer[] = [];
  let offset = 0;
  for (let i = 0; ; i++) {
    const into = Buffer.alloc(pieces[i % pieces.length]!);
    const n = await reader.read(into, offset);
    if (n === 0) break;
    parts.push(into.subarray(0, n));
    offset += n;
  }
  return Buffer.concat(parts);
}

function withDir(run: (dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tae-content-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'a private file reads back at any offset and piece size, across segment boundaries, on disk and in memory',
  withDir(async (dir) => {
    const plain = randomBytes(3 * 1024 * 1024 + 12_345);
    for (const blobs of [await diskBlobs(dir), memoryBlobs()]) {
      const key = newDataKey();
      await store(blobs, 'f1', plain, key);
      for (const pieces of [[65_536], [1_048_576 + 7], [1000, 333_333, 5]]) {
        const reader = await openContent(blobs, { id: 'f1', size: plain.length }, key);
        assert.ok((await readAll(reader, pieces)).equals(plain), `pieces ${pieces}`);
        await reader.close();
      }
      const reader = await openContent(blobs, { id: 'f1', size: plain.length }, key);
      const into = Buffer.alloc(100);
      assert.equal(await reader.read(into, 2 * 1024 * 1024 - 50), 100);
      assert.ok(into.equals(plain.subarray(2 * 1024 * 1024 - 50, 2 * 1024 * 1024 + 50)));
      assert.equal(await reader.read(into, plain.length), 0);
      await reader.close();
      await reader.close(); // closing twice is harmless
    }
  }),
);

test(
  'a private file with the wrong key, a tampered segment near the end, a truncated blob or a wrong recorded size does not open',
  withDir(async (dir) => {
    const blobs = await diskBlobs(dir);
    const plain = randomBytes(2 * 1024 * 1024 + 10);
    const key = newDataKey();
    await store(blobs, 'f2', plain, key);
    const refused = (e: unknown) => isTaeError(e) && e.code === 'FORBIDDEN';
    await assert.rejects(openContent(blobs, { id: 'f2', size: plain.length }, newDataKey()), refused);
    await assert.rejects(openContent(blobs, { id: 'f2', size: plain.length - 1 }, key), refused);
    const path = blobs.pathOf('f2')!;
    const sealed = readFileSync(path);
    sealed[sealed.length - 100]! ^= 1;
    writeFileSync(path, sealed);
    await assert.rejects(
      openContent(blobs, { id: 'f2', size: plain.length }, key),
      /segment 1 fails authentication/,
    );
    sealed[sealed.length - 100]! ^= 1;
    writeFileSync(path, sealed);
    const reader = await openContent(blobs, { id: 'f2', size: plain.length }, key);
    assert.ok((await readAll(reader, [1 << 20])).equals(plain));
    await reader.close();
    truncateSync(blobs.pathOf('f2')!, 1024 * 1024);
    await assert.rejects(openContent(blobs, { id: 'f2', size: plain.length }, key), refused);
  }),
);

test(
  'an EVTX file parsed through a private reader gives the same records as the plain bytes',
  withDir(async (dir) => {
    const blobs = await diskBlobs(dir);
    const evtx = writeEvtx(
      Array.from({ length: 3000 }, (_, i) => ({
        recordId: i + 1,
        time: new Date(Date.UTC(2024, 2, 1) + i * 1000).toISOString(),
        provider: 'Microsoft-Windows-Security-Auditing',
        eventId: 4624 + (i % 3),
        channel: 'Security',
        computer: 'host1',
        eventData: { TargetUserName: `user${i}`, Padding: 'x'.repeat(300) },
      })),
    );
    const key = newDataKey();
    await store(blobs, 'f3', evtx, key);
    const ids = async (parse: ReturnType<typeof parseEvtx>) => {
      const out: number[] = [];
      for await (const r of parse) if (r.event) out.push(r.event.recordId);
      return out;
    };
    const expected = await ids(parseEvtx(evtx));
    assert.equal(expected.length, 3000);
    for (const threads of [0, 2]) {
      const reader = await openContent(blobs, { id: 'f3', size: evtx.length }, key);
      assert.deepEqual(await ids(parseEvtxReader(reader, { threads })), expected, `threads ${threads}`);
    }
  }),
);
