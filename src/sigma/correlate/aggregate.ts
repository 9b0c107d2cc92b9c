/**
 * The aggregate each correlation type compares with its condition, as a registry of small
 * accumulators. Sliding windows add and remove entries, so each accumulator is incremental
 * where the statistic allows; the order-based ones recompute over the window.
 */
import type { CorrelationType } from '../model.js';
import type { WindowEntry } from './types.js';

export interface Accumulator {
  add(e: WindowEntry): void;
  remove(e: WindowEntry): void;
  /**
   * The statistic over the entries held, which are `entries[start..end)` (NaN when undefined,
   * e.g. a mean of nothing); the range lets order-based statistics read without copying.
   */
  value(entries: readonly WindowEntry[], start: number, end: number): number;
}

/** A number from an event value: decimal or 0x-hex text; anything else is not counted. */
export function numberOf(text: string | null): number | undefined {
  if (text === null) return undefined;
  const t = text.trim();
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (/^0x[0-9a-f]+$/i.test(t)) return Number.parseInt(t.slice(2), 16);
  return undefined;
}

class Counter {
  private readonly counts = new Map<string, number>();
  add(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  remove(key: string): void {
    const n = (this.counts.get(key) ?? 0) - 1;
    if (n <= 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
  has(key: string): boolean {
    return this.counts.has(key);
  }
  get size(): number {
    return this.counts.size;
  }
}

function eventCount(): Accumulator {
  let n = 0;
  return { add: () => void n++, remove: () => void n--, value: () => n };
}

function valueCount(): Accumulator {
  const distinct = new Counter();
  return {
    add: (e) => (e.value === null ? undefined : distinct.add(e.value)),
    remove: (e) => (e.value === null ? undefined : distinct.remove(e.value)),
    value: () => distinct.size,
  };
}

function valueSum(): Accumulator {
  let sum = 0;
  return {
    add: (e) => {
      sum += numberOf(e.value) ?? 0;
    },
    remove: (e) => {
      sum -= numberOf(e.value) ?? 0;
    },
    value: () => sum,
  };
}

function numbersIn(entries: readonly WindowEntry[], start: number, end: number): number[] {
  const xs: number[] = [];
  for (let i = start; i < end; i++) {
    const x = numberOf(entries[i]!.value);
    if (x !== undefined) xs.push(x);
  }
  return xs;
}

function valueAvg(): Accumulator {
  return {
    add: () => {},
    remove: () => {},
    value: (entries, start, end) => {
      const xs = numbersIn(entries, start, end);
      return xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
    },
  };
}

/** Linear interpolation between closest ranks (NumPy's default), `p` in 0..100. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

function valuePercentile(p: number): () => Accumulator {
  return () => ({
    add: () => {},
    remove: () => {},
    value: (entries, start, end) => percentile(numbersIn(entries, start, end), p),
  });
}

function distinctRules(): Accumulator {
  const rules = new Counter();
  return { add: (e) => rules.add(e.rule), remove: (e) => rules.remove(e.rule), value: () => rules.size };
}

/**
 * How many of the rules, in their listed order, occur as an increasing-time chain in the
 * window. Taking each rule's earliest match after the previous link is optimal for a
 * subsequence, so one pass suffices.
 */
export function orderedChain(order: readonly string[]): () => Accumulator {
  return () => ({
    add: () => {},
    remove: () => {},
    value: (entries, start, end) => {
      let next = 0;
      for (let i = start; i < end && next < order.length; i++) if (entries[i]!.rule === order[next]) next++;
      return next;
    },
  });
}

/**
 * Which of the rules are present, as a bit mask (bit i for `rules[i]`), for pySigma's boolean
 * temporal conditions; the loader caps such correlations at 31 rules.
 */
export function presenceMask(rules: readonly string[]): () => Accumulator {
  const bit = new Map(rules.map((r, i) => [r, 1 << i]));
  return () => {
    const present = new Counter();
    return {
      add: (e) => present.add(e.rule),
      remove: (e) => present.remove(e.rule),
      value: () => {
        let mask = 0;
        for (const [rule, b] of bit) if (present.has(rule)) mask |= b;
        return mask;
      },
    };
  };
}

export function accumulatorFor(
  type: CorrelationType,
  rules: readonly string[],
  percentileValue: number,
): () => Accumulator {
  switch (type) {
    case 'event_count':
      return eventCount;
    case 'value_count':
      return valueCount;
    case 'value_sum':
      return valueSum;
    case 'value_avg':
      return valueAvg;
    case 'value_percentile':
      return valuePercentile(percentileValue);
    case 'value_median':
      return valuePercentile(50);
    case 'temporal':
      return distinctRules;
    case 'temporal_ordered':
      return orderedChain(rules);
  }
}
