/**
 * Aho–Corasick over UTF-16 code units: every literal of a field found in one pass over the
 * text, however many literals there are (CommandLine collects thousands). The trie lives in
 * one flat table over the ASCII characters the literals use, completed into a DFA (one array
 * read per character); non-ASCII characters, rare in both literals and events, walk per-state
 * maps with failure links. scanner-build.ts makes the arrays; scanner-data.ts checks arrays a
 * cache gives back.
 */

export interface LiteralSink {
  hit(literal: number): void;
}

/** A built automaton: plain arrays, so a cache can keep it. State 0 is the root. */
export interface ScannerData {
  /** Literal ids run from 0 to this (exclusive). */
  readonly literals: number;
  /** Columns of the table: 1 + the ASCII characters the literals use. */
  readonly width: number;
  /** ASCII code → column (0: a character no literal uses, which always leads back to the root). */
  readonly columns: Uint8Array;
  /** state × width + column → next state. */
  readonly table: Uint16Array | Int32Array;
  /** Per state: the longest proper suffix that is also a state. */
  readonly fail: Int32Array;
  /** Per state: the first state of its output chain, itself if a literal ends there (-1: none). */
  readonly firstOut: Int32Array;
  /** Per state: the next state down an output chain (-1: none). */
  readonly output: Int32Array;
  /** The literals ending at state s are endIds[endStart[s] .. endStart[s + 1]). */
  readonly endStart: Int32Array;
  readonly endIds: Int32Array;
  /** Non-ASCII transitions as (state, code unit, next state) triples. */
  readonly wide: Int32Array;
}

/** The next state on non-ASCII code unit `c`: the transition of `state` or of its failure links. */
export function stepWide(
  wide: ReadonlyMap<number, ReadonlyMap<number, number>>,
  fail: Int32Array,
  state: number,
  c: number,
): number {
  for (;;) {
    const n = wide.get(state)?.get(c);
    if (n !== undefined) return n;
    if (state === 0) return 0;
    state = fail[state]!;
  }
}

export class LiteralScanner {
  private readonly wide = new Map<number, Map<number, number>>();
  /** ASCII code → the column of its lower case: folding and the column in one read. */
  private readonly foldColumns = new Uint8Array(128);

  constructor(readonly data: ScannerData) {
    for (let c = 0; c < 128; c++) this.foldColumns[c] = data.columns[c >= 65 && c <= 90 ? c + 32 : c]!;
    const w = data.wide;
    for (let i = 0; i < w.length; i += 3) {
      let m = this.wide.get(w[i]!);
      if (m === undefined) {
        m = new Map();
        this.wide.set(w[i]!, m);
      }
      m.set(w[i + 1]!, w[i + 2]!);
    }
  }

  /**
   * Reports each literal occurring in `text`. With `fold`, the text is matched as
   * `text.toLowerCase()` would be: ASCII is folded on the fly (no copy) and a text with any
   * other character is lowered and scanned again, since lowering it is not per character.
   */
  scan(text: string, sink: LiteralSink, fold = false): void {
    const { table, width, firstOut, output, endStart, endIds } = this.data;
    const columns = fold ? this.foldColumns : this.data.columns;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) state = table[state * width + columns[c]!]!;
      else if (fold) {
        const lower = text.toLowerCase();
        this.scan(lower, sink, false);
        // RE2 matches `s` case-insensitively with `ſ`, which lowering keeps: a regex's `s`
        // literal must be found there too (regex-literals.ts).
        if (lower.includes('\u017f')) this.scan(lower.replaceAll('\u017f', 's'), sink, false);
        return;
      } else state = stepWide(this.wide, this.data.fail, state, c);
      for (let s = firstOut[state]!; s >= 0; s = output[s]!)
        for (let k = endStart[s]!, end = endStart[s + 1]!; k < end; k++) sink.hit(endIds[k]!);
    }
  }
}
