/**
 * The evaluation plan for one candidate list: its variants' literal anchors gathered into one
 * scanner per field. Per event, each anchored field is scanned once; a variant with anchors is
 * evaluated only if each of its clauses had a literal occur (a necessary condition, see
 * anchors.ts), a variant without anchors always. A scanner depends only on its field's literals, so plans with the
 * same ones share it (`ScannerSource`): on SigmaHQ, 361 scanners were 161 distinct.
 */
import type { EvalContext } from '../event.js';
import type { Anchors } from './anchors.js';
import type { LiteralScanner, LiteralSink, ScannerData } from './literal-scan.js';
import { memoOf, type ScanMemo } from './scan-memo.js';
import { buildScanner } from './scanner-build.js';
import { scannerFromData } from './scanner-data.js';

export interface Anchored {
  readonly anchors: Anchors | undefined;
}

/** The built scanner for these literals of a field (ids are positions in `literals`). */
export type ScannerSource = (field: string | null, literals: readonly string[]) => LiteralScanner;

/** A scanner's key: what it is built from. */
const scannerKey = (field: string | null, literals: readonly string[]): string =>
  JSON.stringify([field, literals]);

/**
 * Scanners by key, built once per rule set; `known` (a cache's, by `scannerKey`) is checked
 * and used instead of building, a malformed one built anew.
 */
export class ScannerCache {
  private readonly built = new Map<string, LiteralScanner>();

  constructor(private readonly known: ReadonlyMap<string, unknown> = new Map()) {}

  readonly source: ScannerSource = (field, literals) => {
    const key = scannerKey(field, literals);
    let scanner = this.built.get(key);
    if (scanner === undefined) {
      const data = this.known.get(key);
      scanner =
        (data === undefined ? undefined : scannerFromData(data, literals.length)) ?? buildScanner(literals);
      this.built.set(key, scanner);
    }
    return scanner;
  };

  /** Every scanner used so far, by key. */
  taken(): Map<string, ScannerData> {
    return new Map([...this.built].map(([k, s]) => [k, s.data]));
  }
}

/**
 * Literal characters one field's scanner may hold: its table has at most that many states
 * times the alphabet (≤ 96 printable ASCII columns), so about 46 MB at worst. SigmaHQ's largest
 * (driver hashes, process CommandLine) are near 60,000.
 */
const MAX_FIELD_CHARS = 120_000;

/** Characters per field of one anchor set, kept: every plan holding the variant asks again. */
const fieldLoads = new WeakMap<Anchors, ReadonlyMap<string | null, number>>();
function fieldLoad(anchors: Anchors): ReadonlyMap<string | null, number> {
  let m = fieldLoads.get(anchors) as Map<string | null, number> | undefined;
  if (m === undefined) {
    m = new Map();
    for (const clause of anchors)
      for (const a of clause) m.set(a.field, (m.get(a.field) ?? 0) + a.literal.length);
    fieldLoads.set(anchors, m);
  }
  return m;
}

/** Which entries keep their anchors: a field over budget sheds its largest contributors first. */
function affordable(entries: readonly Anchored[]): boolean[] {
  const keep = entries.map((e) => e.anchors !== undefined);
  const load = new Map<string | null, number>();
  const share = entries.map((e) => (e.anchors === undefined ? new Map() : fieldLoad(e.anchors)));
  for (const m of share) for (const [f, n] of m) load.set(f, (load.get(f) ?? 0) + n);
  for (const field of [...load.keys()]) {
    const total = load.get(field)!;
    if (total <= MAX_FIELD_CHARS) continue;
    const order = entries
      .map((_, i) => i)
      .sort((a, b) => (share[b]!.get(field) ?? 0) - (share[a]!.get(field) ?? 0));
    let over = total - MAX_FIELD_CHARS;
    for (const i of order) {
      if (over <= 0) break;
      if (!keep[i]) continue;
      keep[i] = false;
      for (const [f, n] of share[i]!) load.set(f, load.get(f)! - n);
      over -= share[i]!.get(field) ?? 0;
    }
  }
  return keep;
}

/**
 * Which clauses an anchor of the current event satisfied, and which entries thereby opened
 * (all their clauses satisfied): per clause and entry, the event (epoch) of the last mark, so
 * that a new event needs no clearing. Entries open as literals are found, so an event costs
 * the entries it opens, not every candidate (a process creation has over a thousand).
 */
class Openings {
  readonly stamp: Uint32Array;
  private readonly countedAt: Uint32Array;
  private readonly satisfied: Uint8Array;
  /** The entries opened in this event, in the order they opened. */
  readonly opened: Int32Array;
  openedCount = 0;
  epoch = 0;

  constructor(
    /** Per clause: its entry. */
    private readonly clauseEntry: Int32Array,
    /** Per entry: its number of clauses (0: not gated). */
    private readonly clauseCount: Uint8Array,
  ) {
    this.stamp = new Uint32Array(clauseEntry.length);
    this.countedAt = new Uint32Array(clauseCount.length);
    this.satisfied = new Uint8Array(clauseCount.length);
    this.opened = new Int32Array(clauseCount.length);
  }

  /** Starts the next event; false when the epochs wrapped and every seen-mark must be cleared. */
  next(): boolean {
    this.openedCount = 0;
    if (this.epoch === 0xffffffff) {
      this.epoch = 1;
      this.stamp.fill(0);
      this.countedAt.fill(0);
      return false;
    }
    this.epoch++;
    return true;
  }

  satisfy(clause: number): void {
    const epoch = this.epoch;
    if (this.stamp[clause] === epoch) return;
    this.stamp[clause] = epoch;
    const entry = this.clauseEntry[clause]!;
    if (this.countedAt[entry] !== epoch) {
      this.countedAt[entry] = epoch;
      this.satisfied[entry] = 0;
    }
    if (++this.satisfied[entry]! === this.clauseCount[entry]) this.opened[this.openedCount++] = entry;
  }
}

/** One field's scanner and, per literal, the plan's clauses it satisfies. */
class FieldGate implements LiteralSink {
  /** Per literal: the epoch it was last seen, so each literal marks its clauses once per event. */
  private readonly seen: Uint32Array;
  readonly memo: ScanMemo;

  constructor(
    readonly field: string | null,
    readonly scanner: LiteralScanner,
    private readonly clauses: readonly (readonly number[])[],
    private readonly openings: Openings,
  ) {
    this.seen = new Uint32Array(clauses.length);
    this.memo = memoOf(scanner);
  }

  hit(literal: number): void {
    const openings = this.openings;
    if (this.seen[literal] === openings.epoch) return;
    this.seen[literal] = openings.epoch;
    const list = this.clauses[literal]!;
    for (let k = 0; k < list.length; k++) openings.satisfy(list[k]!);
  }

  reset(): void {
    this.seen.fill(0);
  }
}

export class Plan<E extends Anchored> {
  /** Positions of the entries without anchors, evaluated on every event, ascending. */
  private readonly always: Int32Array;
  private readonly openings: Openings;
  private readonly gates: FieldGate[] = [];
  /** Keyword literals, searched in every value. */
  private keywords: FieldGate | undefined;
  /** What `prepare` found: the positions to evaluate, ascending, in `queue[0 .. count)`. */
  readonly queue: Int32Array;

  constructor(
    readonly entries: readonly E[],
    scanners: ScannerSource,
  ) {
    const clauseCount = new Uint8Array(entries.length);
    const clauseEntry: number[] = [];
    const always: number[] = [];
    const byField = new Map<
      string | null,
      { literals: string[]; clauses: number[][]; ids: Map<string, number> }
    >();
    const keep = affordable(entries);
    entries.forEach((e, position) => {
      if (e.anchors === undefined || e.anchors.length === 0 || !keep[position]) {
        always.push(position);
        return;
      }
      clauseCount[position] = e.anchors.length;
      for (const clause of e.anchors) {
        const id = clauseEntry.length;
        clauseEntry.push(position);
        for (const { field, literal } of clause) {
          let f = byField.get(field);
          if (f === undefined) {
            f = { literals: [], clauses: [], ids: new Map() };
            byField.set(field, f);
          }
          let at = f.ids.get(literal);
          if (at === undefined) {
            at = f.literals.length;
            f.ids.set(literal, at);
            f.literals.push(literal);
            f.clauses.push([]);
          }
          const list = f.clauses[at]!;
          if (list[list.length - 1] !== id) list.push(id);
        }
      }
    });
    this.always = Int32Array.from(always);
    this.queue = new Int32Array(entries.length);
    this.queue.set(this.always);
    this.openings = new Openings(Int32Array.from(clauseEntry), clauseCount);
    for (const [field, f] of byField) {
      const gate = new FieldGate(field, scanners(field, f.literals), f.clauses, this.openings);
      if (field === null) this.keywords = gate;
      else this.gates.push(gate);
    }
  }

  /**
   * Scans the event's anchored fields and returns how many entries can match it: their
   * positions are `queue[0 .. count)`, ascending. Raw texts are scanned with case folding, so
   * fields no opened rule reads are never lower-cased.
   */
  prepare(ctx: EvalContext): number {
    if (this.gates.length === 0 && this.keywords === undefined) return this.always.length;
    const openings = this.openings;
    if (!openings.next()) {
      for (const g of this.gates) g.reset();
      this.keywords?.reset();
    }
    for (let i = 0; i < this.gates.length; i++) {
      const gate = this.gates[i]!;
      const texts = ctx.texts(gate.field!);
      if (texts !== undefined) for (let k = 0; k < texts.length; k++) gate.memo.scan(texts[k]!, gate);
    }
    const keywords = this.keywords;
    // One scan over every value, joined by a character no literal holds (it leads back to the
    // root): a call per value cost more than the characters, about 25 values an event.
    if (keywords !== undefined) keywords.scanner.scan(ctx.allTexts().join('\u0000'), keywords, true);
    return this.merge(openings.opened, openings.openedCount);
  }

  /** The always-evaluated positions and the opened ones (sorted here: few), merged into `queue`. */
  private merge(opened: Int32Array, n: number): number {
    for (let i = 1; i < n; i++) {
      const v = opened[i]!;
      let j = i - 1;
      while (j >= 0 && opened[j]! > v) {
        opened[j + 1] = opened[j]!;
        j--;
      }
      opened[j + 1] = v;
    }
    const always = this.always;
    const queue = this.queue;
    let a = 0;
    let o = 0;
    let q = 0;
    while (a < always.length && o < n) queue[q++] = always[a]! < opened[o]! ? always[a++]! : opened[o++]!;
    while (a < always.length) queue[q++] = always[a++]!;
    while (o < n) queue[q++] = opened[o++]!;
    return q;
  }
}
