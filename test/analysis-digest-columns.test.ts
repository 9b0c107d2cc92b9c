/**
 * Digests as columns (analysis/digest-columns.ts) give back each digest exactly, numbers at
 * their edges included, and keep each distinct text once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fact } from '../src/analysis/facts.js';
import { digestAt, digestColumns, digestCount, type EventDigest } from '../src/analysis/index.js';

const digest = (over: Partial<EventDigest>): EventDigest => ({
  recordId: 1,
  timestamp: 1_672_531_201_783,
  eventId: 4624,
  provider: 'Microsoft-Windows-Security-Auditing',
  channel: 'Security',
  computer: 'HOST-001',
  hash: -1_234_567,
  facts: null,
  failures: 0,
  ...over,
});

test('each digest comes back field for field and in order, edge numbers and texts included', () => {
  const fact = { kind: 'notable', computer: 'HOST-001' } as unknown as Fact;
  const digests: (EventDigest | null)[] = [
    digest({}),
    null,
    digest({ recordId: 2 ** 53 + 2, timestamp: Number.NaN, eventId: 0, hash: 0, failures: 3 }),
    digest({ timestamp: -0, provider: 'Prövider\u{1F600}', computer: '\uD800lone', facts: [fact] }),
    digest({ recordId: 9, timestamp: -62_135_596_800_000, channel: '' }),
    null,
  ];
  const columns = digestColumns(digests);
  assert.equal(digestCount(columns), digests.length);
  for (let i = 0; i < digests.length; i++) {
    const back = digestAt(columns, i);
    assert.deepStrictEqual(back, digests[i]);
    if (back !== null) assert.deepEqual(Object.keys(back), Object.keys(digests[i]!));
  }
  assert.ok(Object.is(digestAt(columns, 3)!.timestamp, -0));
  assert.equal(digestAt(columns, 3)!.facts![0], fact);
  // Six distinct texts among the digests' provider, channel and computer fields.
  assert.equal(columns.texts.length, 6);
});

test('no digests make empty columns', () => {
  const columns = digestColumns([]);
  assert.equal(digestCount(columns), 0);
  assert.equal(columns.numbers.length, 0);
});
