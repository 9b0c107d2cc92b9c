/** A correlation's condition turned into an accumulator, a test and a window strategy. */
import { bindCondition } from '../condition/evaluate.js';
import type { CorrelationOp, SigmaCorrelation } from '../model.js';
import { type Accumulator, accumulatorFor, presenceMask } from './aggregate.js';
import { type Holds, progressive, tumbling } from './window.js';

const COMPARE: Readonly<Record<CorrelationOp, (a: number, b: number) => boolean>> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
};

/** Statistics that only grow as matches arrive, so a lower bound can fire early. */
const GROWING = new Set(['event_count', 'value_count', 'value_sum', 'temporal', 'temporal_ordered']);

export interface Plan {
  readonly accumulator: () => Accumulator;
  readonly holds: Holds;
  readonly windows: typeof progressive;
}

function hasNot(tree: unknown): boolean {
  return JSON.stringify(tree).includes('"kind":"not"');
}

export function planOf(c: SigmaCorrelation): Plan {
  const condition = c.condition;
  if (condition === undefined) {
    // The spec's default for temporal types: every referenced rule matched (in order).
    const all = c.rules.length;
    return { accumulator: accumulatorFor(c.type, c.rules, 50), holds: (v) => v >= all, windows: progressive };
  }
  if ('expression' in condition) {
    const bits = new Map(c.rules.map((r, i) => [r, (mask: number) => (mask & (1 << i)) !== 0]));
    const holds = bindCondition<number>(condition.tree, bits);
    return {
      accumulator: presenceMask(c.rules),
      holds,
      windows: hasNot(condition.tree) ? tumbling : progressive,
    };
  }
  const tests = condition.tests;
  const holds: Holds = (v) => !Number.isNaN(v) && tests.every((t) => COMPARE[t.op](v, t.value));
  const lowerBoundsOnly = tests.every((t) => t.op === 'gt' || t.op === 'gte');
  return {
    accumulator: accumulatorFor(c.type, c.rules, condition.percentile ?? 50),
    holds,
    windows: lowerBoundsOnly && GROWING.has(c.type) ? progressive : tumbling,
  };
}
