/**
 * Event counts over time, hourly while that stays small: past `maxKeys` distinct hours the
 * counts fold into days (then months), so hostile timestamps spread over centuries stay bounded.
 */
import { formatTime } from '../text.js';
export type BucketUnit = 'hour' | 'day' | 'month';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const monthOf = (ms: number): number => {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
};

/** The bucket's start in ms, from its index in `unit`. */
function startOf(unit: BucketUnit, index: number): number {
  if (unit === 'hour') return index * HOUR;
  if (unit === 'day') return index * DAY;
  return Date.UTC(Math.floor(index / 12), index % 12, 1);
}

/** `YYYY-MM`, `YYYY-MM-DD` or `YYYY-MM-DD HH:00`: the bucket's start, cut from the one time text. */
function label(unit: BucketUnit, index: number): string {
  const text = formatTime(startOf(unit, index));
  if (unit === 'month') return text.slice(0, 7);
  if (unit === 'day') return text.slice(0, 10);
  return `${text.slice(0, 13)}:00`;
}

export const bucketLabel = (u: BucketUnit): string => ({ hour: 'Hour', day: 'Day', month: 'Month' })[u];

function regroup(from: Map<number, number>, unit: BucketUnit, to: BucketUnit): Map<number, number> {
  const out = new Map<number, number>();
  for (const [k, v] of from) {
    const key = to === 'day' ? Math.floor(startOf(unit, k) / DAY) : monthOf(startOf(unit, k));
    out.set(key, (out.get(key) ?? 0) + v);
  }
  return out;
}

export class TimeBuckets {
  private unit: BucketUnit = 'hour';
  private counts = new Map<number, number>();

  constructor(private readonly maxKeys = 20_000) {}

  add(ms: number): void {
    const key =
      this.unit === 'hour' ? Math.floor(ms / HOUR) : this.unit === 'day' ? Math.floor(ms / DAY) : monthOf(ms);
    const c = this.counts.get(key);
    if (c !== undefined) this.counts.set(key, c + 1);
    else if (this.unit !== 'month' || this.counts.size < this.maxKeys) this.counts.set(key, 1);
    if (this.counts.size > this.maxKeys && this.unit !== 'month') this.coarsen();
  }

  private coarsen(): void {
    const next: BucketUnit = this.unit === 'hour' ? 'day' : 'month';
    this.counts = regroup(this.counts, this.unit, next);
    this.unit = next;
  }

  /** Non-empty buckets in time order, in the finest unit that gives at most `maxPoints`. */
  series(maxPoints: number): {
    unit: BucketUnit;
    points: [number, number][];
    format: (index: number) => string;
  } {
    let unit = this.unit;
    let counts = this.counts;
    while (counts.size > maxPoints && unit !== 'month') {
      const next: BucketUnit = unit === 'hour' ? 'day' : 'month';
      counts = regroup(counts, unit, next);
      unit = next;
    }
    // Months spread over millennia (hostile timestamps) still yield at most maxPoints points.
    const points = [...counts].sort((a, b) => a[0] - b[0]).slice(0, maxPoints);
    return { unit, points, format: (i) => label(unit, i) };
  }
}
