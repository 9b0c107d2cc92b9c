/**
 * The completing thread's part of a parallel block build (search/block-threads.ts): it moves
 * each block into the index in block order as soon as that block is built, while a helper
 * still builds later ones, and a helper's failure ends the wait instead of hanging it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildAndMerge } from '../src/search/block-threads.js';
import { type BlockPlan, newGate } from '../src/search/blocks.js';

/** A plan whose blocks were all claimed already (this thread builds none of them). */
function claimedPlan(blocks: number): BlockPlan {
  const next = new Int32Array(new SharedArrayBuffer(4));
  next[0] = blocks;
  return {
    path: '/nonexistent/never-opened.sqlite',
    key: null,
    events: blocks,
    blockRows: 1,
    blocks,
    next,
    built: new Int32Array(new SharedArrayBuffer(4 * blocks)),
    gate: newGate(),
    stage: '/nonexistent/never-opened.sqlite.stage',
  };
}

const markBuilt = (plan: BlockPlan, k: number) => {
  Atomics.store(plan.built, k, 1);
  Atomics.notify(plan.built, k);
};

test('built blocks are merged in block order while a helper still builds the last one', async () => {
  const plan = claimedPlan(3);
  markBuilt(plan, 1); // built out of order: block 0 must still go first
  const events: string[] = [];
  const helper = (async () => {
    await new Promise((r) => setTimeout(r, 20));
    events.push('built 0');
    markBuilt(plan, 0);
    await new Promise((r) => setTimeout(r, 50));
    events.push('built 2');
    markBuilt(plan, 2);
  })();
  await buildAndMerge(plan, [helper], (k) => events.push(`merged ${k}`));
  assert.deepEqual(events, ['built 0', 'merged 0', 'merged 1', 'built 2', 'merged 2']);
});

test("a helper's failure ends the merge with its error and closes the gate", async () => {
  const plan = claimedPlan(2);
  markBuilt(plan, 0);
  const merged: number[] = [];
  const helper = new Promise<void>((_, reject) => setTimeout(() => reject(new Error('builder died')), 10));
  await assert.rejects(
    buildAndMerge(plan, [helper], (k) => merged.push(k)),
    /builder died/,
  );
  assert.deepEqual(merged, [0]);
  assert.equal(Atomics.load(plan.gate, 0), 1);
});

test('a merge that throws stops the build and waits for the helpers before it rejects', async () => {
  const plan = claimedPlan(2);
  markBuilt(plan, 0);
  markBuilt(plan, 1);
  let helperDone = false;
  const helper = new Promise<void>((resolve) =>
    setTimeout(() => {
      helperDone = true;
      resolve();
    }, 30),
  );
  await assert.rejects(
    buildAndMerge(plan, [helper], () => {
      throw new Error('disk full');
    }),
    /disk full/,
  );
  assert.ok(helperDone);
  assert.equal(Atomics.load(plan.gate, 0), 1);
});
