/**
 * The evaluation plan for one candidate list: its variants' literal anchors gathered into one
 * scanner per field. Per event, each anchored field is scanned once; a variant with anchors is
 * evaluated only if one of them occurred (a necessary condition, see anchors.ts), a variant
 * without anchors always.
 */
import type { EvalContext } from '../event.js';
import type { Anchors } from './anchors.js';
import { LiteralScanner, type LiteralSink } from './literal-scan.js';

export interface Anchored {
  readonly anchors: Anchors | undefined;
}

/**
 * Literal characters one field's scanner may hold: its table has at most that many states
 * times the alphabet (≤ 96 printable ASCII columns), so about 46 MB at worst. SigmaHQ's largest
 * (driver hashes, process CommandLine) are near 60,000.
 */
const MAX_FIELD_CHARS = 120_000;

/** Which entries keep their anchors: a field over budget sheds its largest contributors first. */
function affordable(entries: readonly Anchored[]): boolean[] {
  const keep = entries.map((e) => e.anchors !== undefined);
  const load = new Map<string | null, number>();
  const share = entries.map((e) => {
    const m = new Map<string | null, number>();
    for (const a of e.anchors ?? []) m.set(a.field, (m.get(a.field) ?? 0) + a.literal.length);
    for (const [f, n] of m) load.set(f, (load.get(f) ?? 0) + n);
    return m;
  });
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

export class Plan<E extends Anchored> implements LiteralSink {
  private readonly gated: Uint8Array;
  /** Per entry: the event (epoch) in which one of its anchors occurred. */
  private readonly stamp: Uint32Array;
  /** Per literal: the epoch it was last seen, so each literal marks its entries once per event. */
  private readonly seen: Uint32Array;
  private readonly literalEntries: number[][] = [];
  private readonly scanners: { readonly field: string; readonly scanner: LiteralScanner }[] = [];
  /** Keyword literals, searched in every value. */
  private keywords: LiteralScanner | undefined;
  private epoch = 0;

  constructor(readonly entries: readonly E[]) {
    this.gated = new Uint8Array(entries.length);
    this.stamp = new Uint32Array(entries.length);
    const ids = new Map<string, number>();
    const byField = new Map<string | null, LiteralScanner>();
    const keep = affordable(entries);
    entries.forEach((e, position) => {
      if (e.anchors === undefined || !keep[position]) return;
      this.gated[position] = 1;
      for (const { field, literal } of e.anchors) {
        const key = `${field}\u0000${literal}`;
        let id = ids.get(key);
        if (id === undefined) {
          id = this.literalEntries.length;
          ids.set(key, id);
          this.literalEntries.push([]);
          let scanner = byField.get(field);
          if (scanner === undefined) {
            scanner = new LiteralScanner();
            byField.set(field, scanner);
          }
          scanner.add(literal, id);
        }
        const list = this.literalEntries[id]!;
        if (list[list.length - 1] !== position) list.push(position);
      }
    });
    this.seen = new Uint32Array(this.literalEntries.length);
    for (const [field, scanner] of byField) {
      scanner.build();
      if (field === null) this.keywords = scanner;
      else this.scanners.push({ field, scanner });
    }
  }

  /**
   * Scans the event's anchored fields; call before `open`. Raw texts are scanned with case
   * folding, so fields no opened rule reads are never lower-cased.
   */
  prepare(ctx: EvalContext): void {
    if (this.scanners.length === 0 && this.keywords === undefined) return;
    if (this.epoch === 0xffffffff) {
      this.epoch = 0;
      this.stamp.fill(0);
      this.seen.fill(0);
    }
    this.epoch++;
    for (let i = 0; i < this.scanners.length; i++) {
      const { field, scanner } = this.scanners[i]!;
      const texts = ctx.texts(field);
      if (texts !== undefined) for (let k = 0; k < texts.length; k++) scanner.scan(texts[k]!, this, true);
    }
    if (this.keywords !== undefined)
      for (const text of ctx.event.values()) this.keywords.scan(text, this, true);
  }

  hit(literal: number): void {
    if (this.seen[literal] === this.epoch) return;
    this.seen[literal] = this.epoch;
    const positions = this.literalEntries[literal]!;
    for (let k = 0; k < positions.length; k++) this.stamp[positions[k]!] = this.epoch;
  }

  /** Whether entry `position` can match the prepared event. */
  open(position: number): boolean {
    return this.gated[position] === 0 || this.stamp[position] === this.epoch;
  }
}
