/**
 * A staging batch's form on its way to the writer thread (search/stage-wire.ts): what arrives is
 * what was sent, rows of a chunk by the same pack, whole events by the same object, each event's
 * rules with their titles; and nothing but the packs' and the numbers' buffers is needed to move it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intrusionStory } from '../fixtures/stories/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { RowPacker } from '../src/rows/index.js';
import { fromWire, toWire } from '../src/search/stage-wire.js';
import type { StagedDuplicate, StagedEvent } from '../src/search/stager.js';

async function storyEvents(): Promise<EvtxEvent[]> {
  const events: EvtxEvent[] = [];
  for await (const r of parseEvtx(intrusionStory()[0]!.bytes, { threads: 0 }))
    if (r.event !== undefined) events.push(r.event);
  return events;
}

test('a batch of rows, whole events, rules and duplicates arrives as it was sent', async () => {
  const all = await storyEvents();
  assert.ok(all.length >= 8);
  const pack = (es: readonly EvtxEvent[]) => {
    const p = new RowPacker();
    for (const e of es) p.add(e);
    return p.take();
  };
  const a = pack(all.slice(0, 3));
  const b = pack(all.slice(3, 6));
  const events: StagedEvent[] = [
    [1, 1, [], [], a, 0],
    [2, 1, [4, 9], ['Four', 'Nine'], a, 1],
    [4, 2, [], [], b, 0],
    [5, 1, [7], ['Seven'], all[6]!, -1],
    [6, 2, [], [], a, 2],
    [8, 3, [2], ['Two'], b, 2],
  ];
  const duplicates: StagedDuplicate[] = [
    [3, 2, b, 1],
    [7, 3, all[7]!, -1],
  ];
  const wire = toWire(events, duplicates);
  assert.deepEqual(wire.packs, [a, b]);
  assert.equal(wire.events.length, 2);
  // Structured cloning keeps one copy per pack and object, as a post to the writer does.
  const arrived = fromWire(structuredClone(wire));
  assert.deepEqual(arrived.events, structuredClone(events));
  assert.deepEqual(arrived.duplicates, structuredClone(duplicates));
  assert.equal(arrived.events[0]![4], arrived.events[1]![4], 'rows of one chunk share their pack');
  assert.equal(arrived.events[2]![4], arrived.duplicates[0]![2]);
});

test('an empty batch crosses as an empty batch', () => {
  assert.deepEqual(fromWire(structuredClone(toWire([], []))), { events: [], duplicates: [] });
});
