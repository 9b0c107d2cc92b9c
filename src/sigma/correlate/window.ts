/**
 * When a group's matches satisfy a correlation. Two strategies, chosen per condition:
 *
 * - progressive: a sliding window ending at each match; it fires as soon as the condition
 *   holds, then starts afresh after the last match used, so a burst fires once. Right for
 *   conditions that only grow true (`gte`, all rules seen): waiting would only delay.
 * - tumbling: windows opened by the first match not yet used and closed `timespan` later,
 *   judged once when closed. Needed whenever an upper bound (`lt`, `lte`, `eq`, `neq`), a
 *   mean or percentile, or a negated rule is involved, since those are known only at the end.
 */
import type { Accumulator } from './aggregate.js';
import type { Firing, WindowEntry } from './types.js';

export type Holds = (value: number) => boolean;

export function progressive(
  entries: readonly WindowEntry[],
  timespanMs: number,
  makeAccumulator: () => Accumulator,
  holds: Holds,
): Firing[] {
  const firings: Firing[] = [];
  let acc = makeAccumulator();
  let start = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    while (start < i && e.ts - entries[start]!.ts > timespanMs) acc.remove(entries[start++]!);
    acc.add(e);
    const value = acc.value(entries, start, i + 1);
    if (holds(value)) {
      firings.push({ start, end: i, value });
      acc = makeAccumulator();
      start = i + 1;
    }
  }
  return firings;
}

export function tumbling(
  entries: readonly WindowEntry[],
  timespanMs: number,
  makeAccumulator: () => Accumulator,
  holds: Holds,
): Firing[] {
  const firings: Firing[] = [];
  let start = 0;
  while (start < entries.length) {
    const opened = entries[start]!.ts;
    const acc = makeAccumulator();
    let end = start;
    while (end < entries.length && entries[end]!.ts - opened <= timespanMs) acc.add(entries[end++]!);
    const value = acc.value(entries, start, end);
    if (holds(value)) firings.push({ start, end: end - 1, value });
    start = end;
  }
  return firings;
}
