/**
 * Bounded aggregates: the analyzer keeps counts, spans and a few samples per group, never the
 * events, and every map has a cap so hostile input (millions of distinct names) cannot grow it.
 */

/**
 * Counts per key; keys past the cap are counted in `overflow` instead. Most groups see one key,
 * and tens of thousands of groups exist at once (36,000 on a 238 MB job), so the first key and
 * its count are fields, the next seven go to two small arrays made when needed, and a Map takes
 * over past eight keys: a one-key group costs no array (two arrays cost about 300 bytes).
 */
export class Tally {
  private firstKey: string | undefined = undefined;
  private firstCount = 0;
  private keys: string[] | null = null;
  private values: number[] | null = null;
  private map: Map<string, number> | null = null;
  overflow = 0;
  constructor(private readonly cap: number) {}

  add(key: string, n = 1): void {
    const map = this.map;
    if (map !== null) {
      const c = map.get(key);
      if (c !== undefined) map.set(key, c + n);
      else if (map.size < this.cap) map.set(key, n);
      else this.overflow += n;
      return;
    }
    if (key === this.firstKey) {
      this.firstCount += n;
      return;
    }
    const i = this.keys === null ? -1 : this.keys.indexOf(key);
    if (i >= 0) this.values![i]! += n;
    else if (this.size >= this.cap) this.overflow += n;
    else if (this.firstKey === undefined) {
      this.firstKey = key;
      this.firstCount = n;
    } else if (this.keys === null) {
      this.keys = [key];
      this.values = [n];
    } else if (this.keys.length < 7) {
      this.keys.push(key);
      this.values!.push(n);
    } else {
      this.map = new Map(this.entries());
      this.map.set(key, n);
      this.firstKey = undefined;
      this.keys = null;
      this.values = null;
    }
  }

  /** Distinct keys counted (not those past the cap). */
  get size(): number {
    return this.map?.size ?? (this.firstKey === undefined ? 0 : 1) + (this.keys?.length ?? 0);
  }

  /** Keys and counts in the order first seen. */
  entries(): [string, number][] {
    if (this.map !== null) return [...this.map];
    const out: [string, number][] = this.firstKey === undefined ? [] : [[this.firstKey, this.firstCount]];
    const keys = this.keys;
    if (keys !== null) for (let i = 0; i < keys.length; i++) out.push([keys[i]!, this.values![i]!]);
    return out;
  }

  /** The `n` largest, count descending then key ascending (deterministic). */
  top(n = Number.POSITIVE_INFINITY): [string, number][] {
    return this.entries()
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, n);
  }

  get total(): number {
    let t = this.overflow;
    for (const [, v] of this.entries()) t += v;
    return t;
  }
}

/** `a (3), b (1) …+2 more`: the top entries of a tally as one cell. */
export function topText(t: Tally, n: number): string {
  const top = t.top(n);
  const rest = t.size - top.length + (t.overflow > 0 ? 1 : 0);
  const s = top.map(([k, v]) => `${k} (${v})`).join(', ');
  return rest > 0 ? `${s} …+${rest} more` : s;
}

/** The one key alone, or the top keys with counts when there are several. */
export function namesText(t: Tally, n: number): string {
  const only = t.size === 1 && t.overflow === 0 ? t.top(1)[0] : undefined;
  return only !== undefined ? only[0] : topText(t, n);
}

/**
 * When a group of events was first and last seen, and its reference record: the record id and,
 * when the caller knows them, its `<channel>#<record>` reference and file (the timeline names
 * them, since record ids repeat across channels and files).
 */
export class Span {
  count = 0;
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** Record id of the earliest event (ties: the lowest record id); 0 until one has a time. */
  firstRecord = 0;
  /** Record id of the first event added, for groups whose events carry no time. */
  anyRecord = 0;
  /** Reference and file of the record `record` names ('' when not given). */
  ref = '';
  file = '';

  add(ms: number, recordId: number, ref = '', file = ''): void {
    if (this.count++ === 0) {
      this.anyRecord = recordId;
      this.ref = ref;
      this.file = file;
    }
    if (!Number.isFinite(ms)) return;
    if (ms < this.first || (ms === this.first && recordId < this.firstRecord)) {
      this.first = ms;
      this.firstRecord = recordId;
      this.ref = ref;
      this.file = file;
    }
    if (ms > this.last) this.last = ms;
  }

  get hasTime(): boolean {
    return Number.isFinite(this.first);
  }

  get record(): number {
    return this.hasTime ? this.firstRecord : this.anyRecord;
  }

  /** A timeline entry's times and reference record (no end for a single event). */
  entryTimes(): { timestamp_start: number; timestamp_end: number | null; record_id: number } {
    return {
      timestamp_start: this.first,
      timestamp_end: this.count > 1 ? this.last : null,
      record_id: this.record,
    };
  }
}

/** Up to `cap` distinct values, in the order first seen. */
export class Samples {
  readonly items: string[] = [];
  constructor(private readonly cap: number) {}

  add(s: string): void {
    if (s !== '' && this.items.length < this.cap && !this.items.includes(s)) this.items.push(s);
  }
}

/**
 * Groups one table tracks (a source-keyed table half as many): a few times the 1,000–2,000 rows
 * a table shows. Groups cost 0.5–2 KB each, and generated or hostile logs fill every cap, so
 * these caps are what a job's analysis holds at most: with 20,000 (before issue 14) the
 * analyzer held 210 MB on 1 GB of generated logs, and a parse job peaked at 1.4 GB.
 */
export const GROUPS_PER_TABLE = 5000;

/** Groups by key with a cap; keys past the cap are dropped and counted. */
export class Groups<V> {
  readonly map = new Map<string, V>();
  dropped = 0;
  constructor(private readonly cap: number) {}

  get(key: string, create: () => V): V | undefined {
    const g = this.map.get(key);
    if (g !== undefined) return g;
    if (this.map.size >= this.cap) {
      this.dropped++;
      return undefined;
    }
    const v = create();
    this.map.set(key, v);
    return v;
  }
}
