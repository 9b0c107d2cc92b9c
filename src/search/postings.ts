/**
 * Reading the trigram postings of format 3 (grams.ts makes them): a gram's rows in ascending
 * order, lazily, and the rows several grams share, for event-index.ts.
 */

const MAX_ROW = 2 ** 31 - 1;

/**
 * A gram's rows in ascending order, decoded lazily from its parts (in part order) so a query
 * that fills its page early reads little of a long list. `value` is the current row, Infinity
 * once past the last. A damaged part (a zero delta, a row past 2^31 - 1) ends where the damage
 * starts.
 */
export class PostingsCursor {
  value = 0;
  private part = 0;
  private at = 0;
  private row: number;

  /** `bytes`: the parts' length, to read the shortest list first. */
  readonly bytes: number;

  constructor(
    private readonly parts: readonly Uint8Array[],
    private readonly base: number,
  ) {
    this.row = base;
    this.bytes = parts.reduce((n, p) => n + p.length, 0);
    this.next();
  }

  /** Moves to the next row and returns it. */
  next(): number {
    while (this.part < this.parts.length) {
      const p = this.parts[this.part]!;
      if (this.at < p.length) {
        let d = 0;
        let shift = 0;
        let byte: number;
        do {
          byte = p[this.at++]!;
          d += (byte & 0x7f) * 2 ** shift;
          shift += 7;
        } while (byte >= 0x80 && this.at < p.length);
        if (d > 0 && this.row + d <= MAX_ROW) {
          this.row += d;
          this.value = this.row;
          return this.row;
        }
      }
      this.part++;
      this.at = 0;
      this.row = this.base;
    }
    this.value = Number.POSITIVE_INFINITY;
    return this.value;
  }

  /** Moves to the first row ≥ `v` and returns it. */
  seek(v: number): number {
    while (this.value < v) this.next();
    return this.value;
  }
}

/**
 * Up to `most` rows ≤ `last` that every cursor holds, from where the cursors stand, ascending;
 * the cursors are left past them. `cursors[0]` leads: the shortest list, for the fewest steps.
 */
export function commonRows(cursors: readonly PostingsCursor[], last: number, most: number): number[] {
  const out: number[] = [];
  const lead = cursors[0];
  if (lead === undefined) return out;
  let v = lead.value;
  while (out.length < most && v <= last) {
    let agreed = true;
    for (let c = 1; c < cursors.length; c++) {
      const w = cursors[c]!.seek(v);
      if (w !== v) {
        agreed = false;
        v = lead.seek(w);
        break;
      }
    }
    if (agreed) {
      out.push(v);
      v = lead.next();
    }
  }
  return out;
}
