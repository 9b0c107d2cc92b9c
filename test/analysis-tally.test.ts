/**
 * The analyzer's bounded counts (src/analysis/aggregate.ts `Tally`): the same answers whether a
 * group holds one key, a few or many (fields, arrays, then a Map), and a hard cap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesText, Tally, topText } from '../src/analysis/aggregate.js';

/** What a Tally should answer, counted with a plain Map (first-seen order, cap, overflow). */
function reference(adds: readonly (readonly [string, number])[], cap: number) {
  const m = new Map<string, number>();
  let overflow = 0;
  for (const [k, n] of adds) {
    const c = m.get(k);
    if (c !== undefined) m.set(k, c + n);
    else if (m.size < cap) m.set(k, n);
    else overflow += n;
  }
  return { entries: [...m], overflow, total: [...m.values()].reduce((a, b) => a + b, overflow) };
}

test('a tally counts like a plain map at every size, in first-seen order, past its cap into overflow', () => {
  for (const distinct of [0, 1, 2, 7, 8, 9, 20]) {
    for (const cap of [1, 3, 8, 9, 50]) {
      const adds: [string, number][] = [];
      for (let i = 0; i < distinct * 3; i++) adds.push([`k${(i * 7) % Math.max(1, distinct)}`, 1 + (i % 4)]);
      adds.push(['', 2]); // an empty key is a key like any other
      const t = new Tally(cap);
      for (const [k, n] of adds) t.add(k, n);
      const want = reference(adds, cap);
      const where = `distinct ${distinct}, cap ${cap}`;
      assert.deepEqual(t.entries(), want.entries, where);
      assert.equal(t.size, want.entries.length, where);
      assert.equal(t.overflow, want.overflow, where);
      assert.equal(t.total, want.total, where);
    }
  }
});

test('top orders by count then key, whichever form holds the counts', () => {
  const few = new Tally(100);
  for (const [k, n] of [
    ['b', 2],
    ['a', 2],
    ['c', 5],
    ['b', 1],
  ] as const)
    few.add(k, n);
  assert.deepEqual(few.top(), [
    ['c', 5],
    ['b', 3],
    ['a', 2],
  ]);
  assert.equal(topText(few, 2), 'c (5), b (3) …+1 more');
  const many = new Tally(100);
  for (let i = 0; i < 12; i++) many.add(`k${String(i).padStart(2, '0')}`, i % 3);
  many.add('k00', 10);
  assert.deepEqual(many.top(3), [
    ['k00', 10],
    ['k02', 2],
    ['k05', 2],
  ]);
  const one = new Tally(5);
  one.add('only', 4);
  assert.equal(namesText(one, 3), 'only');
  one.add('second');
  assert.equal(namesText(one, 3), 'only (4), second (1)');
});
