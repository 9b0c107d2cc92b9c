/**
 * A chunk's digests as columns, the form in which they cross from a decode worker to the job's
 * thread. As objects, each digest's field names and its provider, channel and computer were
 * copied across one by one; here the numbers travel in one typed array and each distinct text
 * once per chunk (a chunk's events share a few), so the job's thread also hashes each text once
 * per chunk where it keys a map. `digestAt` gives back the digest the worker made, field for
 * field and in the same order.
 */
import type { EventDigest } from './digest.js';
import type { Fact } from './facts.js';

export interface DigestColumns {
  /** Per record: recordId, timestamp, eventId, hash, failures. */
  readonly numbers: Float64Array;
  /** Per record: its provider, channel and computer in `texts`; -1 for a record without a digest. */
  readonly textAt: Int32Array;
  readonly texts: readonly string[];
  /** Per record: the digest's facts (null for none, or for a record without a digest). */
  readonly facts: readonly (Fact[] | null)[];
}

const NUMBERS = 5;
const TEXTS = 3;

/** `digests` (null: a record without one) as columns. */
export function digestColumns(digests: readonly (EventDigest | null)[]): DigestColumns {
  const n = digests.length;
  const numbers = new Float64Array(n * NUMBERS);
  const textAt = new Int32Array(n * TEXTS).fill(-1);
  const texts: string[] = [];
  const known = new Map<string, number>();
  const textOf = (s: string): number => {
    let k = known.get(s);
    if (k === undefined) {
      k = texts.length;
      texts.push(s);
      known.set(s, k);
    }
    return k;
  };
  const facts: (Fact[] | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const d = digests[i]!;
    if (d === null) {
      facts[i] = null;
      continue;
    }
    const w = i * NUMBERS;
    numbers[w] = d.recordId;
    numbers[w + 1] = d.timestamp;
    numbers[w + 2] = d.eventId;
    numbers[w + 3] = d.hash;
    numbers[w + 4] = d.failures;
    const t = i * TEXTS;
    textAt[t] = textOf(d.provider);
    textAt[t + 1] = textOf(d.channel);
    textAt[t + 2] = textOf(d.computer);
    facts[i] = d.facts;
  }
  return { numbers, textAt, texts, facts };
}

/** Records the columns describe (with a digest or without). */
export const digestCount = (c: DigestColumns): number => c.facts.length;

/** Record `i`'s digest, or null when it has none. */
export function digestAt(c: DigestColumns, i: number): EventDigest | null {
  const t = i * TEXTS;
  if (c.textAt[t]! < 0) return null;
  const w = i * NUMBERS;
  const n = c.numbers;
  return {
    recordId: n[w]!,
    timestamp: n[w + 1]!,
    eventId: n[w + 2]!,
    provider: c.texts[c.textAt[t]!]!,
    channel: c.texts[c.textAt[t + 1]!]!,
    computer: c.texts[c.textAt[t + 2]!]!,
    hash: n[w + 3]!,
    facts: c.facts[i]!,
    failures: n[w + 4]!,
  };
}
