/**
 * The index builder's writer thread (search/stager.ts): rows packed by decode workers move to it
 * batch by batch, all but the chunk still being added, and a batch that cannot reach it ends the
 * build without leaving a thread or a file behind.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { intrusionStory } from '../fixtures/stories/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { type PackedRows, RowPacker, type RowRef } from '../src/rows/index.js';
import { EventIndexBuilder } from '../src/search/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-index-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function storyEvents(): Promise<EvtxEvent[]> {
  const events: EvtxEvent[] = [];
  for await (const r of parseEvtx(intrusionStory()[0]!.bytes, { threads: 0 }))
    if (r.event !== undefined) events.push(r.event);
  return events;
}

/** `events` packed as one chunk's rows. */
function packed(events: readonly EvtxEvent[]): RowRef[] {
  const packer = new RowPacker();
  for (const e of events) packer.add(e);
  const rows: PackedRows = packer.take();
  return events.map((_, at) => ({ packed: rows, at }));
}

test('a batch that cannot reach the writer thread ends the build and removes its files', async () => {
  const events = await storyEvents();
  assert.ok(events.length >= 9);
  const path = join(dir, 'moved.sqlite');
  const b = new EventIndexBuilder({ path, key: null }, { sigma: false, batchSize: 2, writerThreadFrom: 1 });
  const [first, second, third] = [0, 3, 6].map((at) => packed(events.slice(at, at + 3)));
  // Batches go at a chunk's first row (the first one on this thread, then on the writer's).
  for (const row of [...first!, ...second!, ...third!]) b.add(row, 'a.evtx', []);
  // The second chunk's buffers moved to the writer with the batch sent when the third began.
  assert.equal(second![0]!.packed.bytes.byteLength, 0);
  assert.ok(third![0]!.packed.bytes.byteLength > 0, 'the chunk being added stays here');
  // A row of a chunk already handed over cannot be sent: the build stops instead of hanging.
  b.add(second![0]!, 'a.evtx', []);
  await assert.rejects(b.finish(), /detached|cannot transfer/i);
  await b.abort(); // the files go once the writer thread has let them go (their space with them)
  assert.equal(existsSync(`${path}.stage`), false);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('moved')),
    [],
  );
  await assert.rejects(b.finish(), /already finished/);
});

test("rows batched at their chunks' ends all reach the index, each complete chunk moved whole", async () => {
  const events = await storyEvents();
  const path = join(dir, 'whole.sqlite');
  const b = new EventIndexBuilder({ path, key: null }, { sigma: false, batchSize: 2, writerThreadFrom: 1 });
  const chunks = [0, 3, 6].map((at) => packed(events.slice(at, at + 3)));
  for (const row of chunks[0]!) b.add(row, 'a.evtx', []);
  // Past the batch size, but the chunk is not complete: nothing left this thread yet.
  assert.ok(chunks[0]![0]!.packed.bytes.byteLength > 0);
  for (const row of [...chunks[1]!, ...chunks[2]!]) b.add(row, 'a.evtx', []);
  // Each complete chunk went whole: moved (the writer's), never sent while still being added.
  assert.equal(chunks[1]![0]!.packed.bytes.byteLength, 0);
  const built = await b.finish();
  assert.equal(built.events, 9);
  rmSync(path, { force: true });
});
