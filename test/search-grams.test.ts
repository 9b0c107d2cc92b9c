/**
 * The trigram postings of format 3 (src/search/grams.ts) against a plain reading of what they
 * promise: each row under exactly the trigrams (three code points) of its text, none across two
 * values (the separator U+001F, which no search holds), in ascending order, whatever the
 * characters (pairs, lone surrogates, separators) and however many parts a bounded builder cut
 * them into; and the rows common to several lists, read lazily in batches,
 * equal a set intersection.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prng } from '../fixtures/prng.js';
import { GramBuilder } from '../src/search/grams.js';
import { needleTrigrams } from '../src/search/needles.js';
import { commonRows, PostingsCursor } from '../src/search/postings.js';
import { decodePostings, plainTrigrams } from './helpers/postings.js';

const ALPHABET = ['a', 'b', 'c', ' ', '\u001f', 'é', 'ς', '😀', '𝔸', '\ud800', '\udc00', '\u0000', 'z'];

function text(rand: () => number): string {
  const n = Math.floor(rand() * 40);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return s;
}

/** gram → ascending rows, read the plain way. */
function plain(rows: readonly [number, string][]): Map<string, number[]> {
  const want = new Map<string, number[]>();
  for (const [n, t] of rows) {
    for (const g of plainTrigrams(t)) want.set(g, [...(want.get(g) ?? []), n]);
  }
  return want;
}

function built(rows: readonly [number, string][], base: number, flushBytes: number, maxGrams: number) {
  const b = new GramBuilder(base, flushBytes, maxGrams);
  const parts = new Map<string, Uint8Array[]>();
  let takes = 0;
  const take = () => {
    takes++;
    let last = '';
    b.drain((gram, postings) => {
      assert.ok(gram > last, 'a part lists each gram once, in order');
      last = gram;
      parts.set(gram, [...(parts.get(gram) ?? []), postings.slice()]);
    });
  };
  for (const [n, t] of rows) {
    b.add(n, t);
    if (b.full) take();
  }
  take();
  const got = new Map<string, number[]>();
  for (const [g, p] of parts) got.set(g, [...decodePostings(p, base)]);
  return { got, takes };
}

test('every row is under exactly the trigrams of its code points, in order, in one part or many', () => {
  const rand = prng(7);
  const base = 1000;
  const rows: [number, string][] = [];
  for (let n = base + 1; rows.length < 3000; n += 1 + Math.floor(rand() * 300)) rows.push([n, text(rand)]);
  rows.push([base + 10_000_000, 'abc😀\ud800abc']); // a delta of several varint bytes
  const want = new Map([...plain(rows)].sort());
  const whole = built(rows, base, 1 << 30, 1 << 30);
  assert.equal(whole.takes, 1);
  assert.deepEqual(new Map([...whole.got].sort()), want);
  const cut = built(rows, base, 64, 50);
  assert.ok(cut.takes > 20, `a bounded builder made parts (${cut.takes})`);
  assert.deepEqual(new Map([...cut.got].sort()), want);
});

test('no trigram holds the separator between two values: each value is indexed alone', () => {
  const b = new GramBuilder(0);
  b.add(1, 'abc\u001fdef\u001fgh\u001f\u001fijk');
  const got: [string, number[]][] = [];
  b.drain((gram, postings) => got.push([gram, decodePostings([postings], 0)]));
  assert.deepEqual(got, [
    ['abc', [1]],
    ['def', [1]],
    ['ijk', [1]],
  ]);
});

test('a text under three code points has no trigram; a pair is one code point', () => {
  const b = new GramBuilder(0);
  b.add(1, 'ab');
  b.add(2, '😀😀');
  b.add(3, '😀ab');
  const got: [string, number[]][] = [];
  b.drain((gram, postings) => got.push([gram, decodePostings([postings], 0)]));
  assert.deepEqual(got, [['😀ab', [3]]]);
});

/** Postings of ascending `rows` over `base`, cut into parts every `cut` rows. */
function encoded(rows: readonly number[], base: number, cut: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < rows.length; i += cut) {
    const b = new GramBuilder(base);
    for (const n of rows.slice(i, i + cut)) b.add(n, 'abc');
    b.drain((_, postings) => parts.push(postings.slice()));
  }
  return parts;
}

test('rows common to every list, taken in batches below a last row, equal a set intersection', () => {
  const rand = prng(11);
  for (let round = 0; round < 200; round++) {
    const lists = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => {
      const s = new Set<number>();
      const size = Math.floor(rand() * 60);
      while (s.size < size) s.add(1 + Math.floor(rand() * 100));
      return [...s].sort((x, y) => x - y);
    });
    const first = 1 + Math.floor(rand() * 30);
    const last = 60 + Math.floor(rand() * 50);
    const want = lists[0]!.filter((v) => v >= first && v <= last && lists.every((l) => l.includes(v)));
    const cursors = lists.map((l) => new PostingsCursor(encoded(l, 0, 1 + Math.floor(rand() * 20)), 0));
    cursors.sort((x, y) => x.bytes - y.bytes);
    cursors[0]!.seek(first);
    const got: number[] = [];
    for (let batch = commonRows(cursors, last, 3); batch.length > 0; batch = commonRows(cursors, last, 3)) {
      assert.ok(batch.length <= 3);
      got.push(...batch);
    }
    assert.deepEqual(got, want);
  }
  assert.deepEqual(commonRows([], 10, 10), []);
});

test('damaged postings decode without throwing, to rows above the base', () => {
  const rand = prng(3);
  for (let round = 0; round < 500; round++) {
    const bytes = Uint8Array.from({ length: Math.floor(rand() * 20) }, () => Math.floor(rand() * 256));
    const rows = decodePostings([bytes, bytes], 5);
    for (const n of rows) assert.ok(n > 5 && n < 2 ** 31);
  }
});

test("a needle's trigrams: lone surrogates as U+FFFD (as stored), none under three code points", () => {
  assert.equal(needleTrigrams(['ab', '😀😀']), null);
  assert.deepEqual(needleTrigrams(['a\ud800b']), ['a\ufffdb']);
  assert.deepEqual(needleTrigrams(['abcd', 'bcd']), ['abc', 'bcd']);
  const long = needleTrigrams(['abcdefghijklmnopqrstuvwxyz'])!;
  assert.equal(long.length, 12);
  assert.equal(long[0], 'abc');
  assert.equal(long[11], 'xyz');
});
