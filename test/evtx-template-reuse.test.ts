/**
 * Template definitions are parsed once and reused by later chunks whose copy matches
 * (src/evtx/template-cache.ts). A copy that differs in a name or in its bytes must be
 * parsed again: reuse may never render one chunk's records with another chunk's template.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { templateCacheStats } from '../src/evtx/template-cache.js';
import { parseEvtx } from '../src/index.js';

const CHUNK = 0x10000;
const FILE_HEADER = 0x1000;

function events(n: number): EventDescription[] {
  return Array.from({ length: n }, (_, i) => ({
    time: `2026-01-02T03:04:${String(i % 60).padStart(2, '0')}.000Z`,
    provider: 'Microsoft-Windows-Security-Auditing',
    eventId: 4624,
    channel: 'Security',
    computer: 'WS01',
    eventData: { TargetUserName: `user${i}`, LogonType: { type: 'uint32', value: 3 } },
  }));
}

async function xmlByChunk(bytes: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  const parse = parseEvtx(Buffer.from(bytes), { outputs: ['xml'], batchText: true });
  for await (const c of parse.chunks()) out[c.chunkIndex] = Buffer.from(c.text!).toString('utf8');
  return out;
}

/** Replaces the first UTF-16LE occurrence of `from` inside chunk `chunk` with `to` (same length). */
function patchChunk(bytes: Uint8Array, chunk: number, from: string, to: string): Uint8Array {
  const copy = new Uint8Array(bytes);
  const start = FILE_HEADER + chunk * CHUNK;
  const at = Buffer.from(copy.buffer, start, CHUNK).indexOf(Buffer.from(from, 'utf16le'));
  assert.ok(at >= 0, `${from} not found in chunk ${chunk}`);
  copy.set(Buffer.from(to, 'utf16le'), start + at);
  return copy;
}

const file = writeEvtx(events(600), { chunkFill: 8192 });

test('the same template in many chunks renders the same records as a fresh parse of each chunk', async () => {
  const first = await xmlByChunk(file);
  assert.ok(first.length >= 4, `only ${first.length} chunks`);
  const again = await xmlByChunk(file);
  assert.deepEqual(again, first);
  for (const text of first) assert.match(text, /<Computer>WS01<\/Computer>/);
});

test('a chunk whose copy of the template has another element name is parsed again, not reused', async () => {
  await xmlByChunk(file); // the templates of every chunk are now known
  const patched = patchChunk(file, 2, 'Computer', 'Komputer');
  const chunks = await xmlByChunk(patched);
  assert.match(chunks[2]!, /<Komputer>WS01<\/Komputer>/);
  assert.doesNotMatch(chunks[2]!, /<Computer>/);
  assert.match(chunks[1]!, /<Computer>WS01<\/Computer>/);
  assert.match(chunks[3]!, /<Computer>WS01<\/Computer>/);
});

test('a chunk whose copy of the template differs in its text is parsed again, not reused', async () => {
  await xmlByChunk(file);
  const patched = patchChunk(file, 3, 'TargetUserName', 'TargetUserNaMe');
  const chunks = await xmlByChunk(patched);
  assert.match(chunks[3]!, /Name="TargetUserNaMe">user/);
  assert.doesNotMatch(chunks[3]!, /TargetUserName/);
  assert.match(chunks[2]!, /Name="TargetUserName">user/);
});

test('a flood of distinct templates keeps the reuse cache within its bounds', async () => {
  const distinct = Array.from({ length: 5000 }, (_, i) => ({
    ...events(1)[0]!,
    eventData: { [`Field${i}`]: `v${i}`, [`Other${i}`]: { type: 'uint32' as const, value: i } },
  }));
  const chunks = await xmlByChunk(writeEvtx(distinct));
  assert.match(chunks.at(-1)!, /<Data Name="Field4999">v4999<\/Data>/);
  const { entries, bytes } = templateCacheStats();
  assert.ok(entries > 0 && entries <= 4096, `${entries} entries`);
  assert.ok(bytes <= 8 * 2 ** 20, `${bytes} bytes`);
});
