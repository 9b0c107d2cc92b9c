/**
 * Reads sized to the file (src/parse/chunks.ts readSize): a small file gets buffers of its own
 * size in whole chunks, not the 4 MiB block or 512 KiB span a large file reads, and a file read
 * with them decodes to the same records, inline and on a pool.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHUNK_SIZE, FILE_HEADER_SIZE } from '../src/evtx/index.js';
import { readSize } from '../src/parse/chunks.js';
import { parseEvtx } from '../src/parse/index.js';
import { manyEventsLog } from './helpers/small-log.js';

const MiB = 1024 * 1024;

test('readSize: the rest of a file of known size in whole chunks, one at least, the block at most', () => {
  assert.equal(readSize(4 * MiB, FILE_HEADER_SIZE, undefined), 4 * MiB);
  assert.equal(readSize(4 * MiB, FILE_HEADER_SIZE, FILE_HEADER_SIZE + 3 * CHUNK_SIZE), 3 * CHUNK_SIZE);
  assert.equal(readSize(4 * MiB, FILE_HEADER_SIZE, FILE_HEADER_SIZE + 100), CHUNK_SIZE);
  assert.equal(readSize(4 * MiB, FILE_HEADER_SIZE, FILE_HEADER_SIZE), CHUNK_SIZE);
  assert.equal(readSize(512 * 1024, 8 * MiB, 100 * MiB), 512 * 1024);
});

test('a file read in buffers of its size gives every record, inline and on a pool', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-read-size-'));
  const bytes = manyEventsLog(400); // a few chunks
  const path = join(dir, 'few.evtx');
  writeFileSync(path, bytes);
  const ids = async (threads: number, source: string | Uint8Array) => {
    const out: number[] = [];
    for await (const r of parseEvtx(source, { threads })) out.push(r.recordNumber);
    return out;
  };
  const fromBytes = await ids(0, bytes);
  assert.equal(fromBytes.length, 400);
  assert.deepEqual(await ids(0, path), fromBytes);
  assert.deepEqual(await ids(2, path), fromBytes);
});
