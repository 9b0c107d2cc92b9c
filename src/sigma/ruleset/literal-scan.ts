/**
 * Aho–Corasick over UTF-16 code units: every literal of a field found in one pass over the
 * text, however many literals there are (CommandLine collects thousands). The trie lives in
 * one flat table over the ASCII characters the literals use, completed in place into a DFA
 * (one array read per character); non-ASCII characters, rare in both literals and events,
 * walk per-state maps with failure links.
 */

export interface LiteralSink {
  hit(literal: number): void;
}

export class LiteralScanner {
  private readonly pending: { readonly literal: string; readonly id: number }[] = [];
  /** ASCII code → column (0: a character no literal uses, which always leads back to the root). */
  private readonly columns = new Uint8Array(128);
  private width = 1;
  private table: Uint16Array | Int32Array = new Int32Array(1);
  /** Non-ASCII transitions: state → (code unit → state). */
  private readonly wide = new Map<number, Map<number, number>>();
  private ends: number[][] = [[]];
  private fail = new Int32Array(1);
  /** The first state of a state's output chain, itself if a literal ends there (-1: none). */
  private firstOut = new Int32Array(1).fill(-1);
  /** The next state down an output chain (-1: none). */
  private output = new Int32Array(1).fill(-1);
  private count = 1;

  get states(): number {
    return this.count;
  }

  add(literal: string, id: number): void {
    if (literal.length > 0) this.pending.push({ literal, id });
  }

  build(): void {
    const chars = [0];
    for (const { literal } of this.pending)
      for (let i = 0; i < literal.length; i++) {
        const c = literal.charCodeAt(i);
        if (c < 128 && this.columns[c] === 0) {
          this.columns[c] = chars.length;
          chars.push(c);
        }
      }
    this.width = chars.length;
    const parent = this.buildTrie();
    this.link(parent);
    if (this.table.length > this.count * this.width)
      this.table = this.table.slice(0, this.count * this.width);
    this.pending.length = 0;
  }

  /**
   * Children are written into the table; a cell left 0 has no child (the root is no one's
   * child). The literals' total length bounds the state count, so nothing is ever regrown.
   */
  private buildTrie(): Int32Array {
    const w = this.width;
    let states = 1;
    for (const { literal } of this.pending) states += literal.length;
    const table = states <= 0xffff ? new Uint16Array(states * w) : new Int32Array(states * w);
    const parent = new Int32Array(states);
    const ends: number[][] = [[]];
    let count = 1;
    for (const { literal, id } of this.pending) {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const c = literal.charCodeAt(i);
        let next: number | undefined;
        if (c < 128) next = table[state * w + this.columns[c]!]! || undefined;
        else next = this.wide.get(state)?.get(c);
        if (next === undefined) {
          next = count++;
          parent[next] = state;
          ends.push([]);
          if (c < 128) table[state * w + this.columns[c]!] = next;
          else {
            let m = this.wide.get(state);
            if (m === undefined) {
              m = new Map();
              this.wide.set(state, m);
            }
            m.set(c, next);
          }
        }
        state = next;
      }
      ends[state]!.push(id);
    }
    this.table = table;
    this.ends = ends;
    this.count = count;
    return parent;
  }

  /** Breadth-first: failure links, output chains, and the table completed into a DFA. */
  private link(parent: Int32Array): void {
    const { width: w, table, ends, count } = this;
    const fail = new Int32Array(count);
    const output = new Int32Array(count).fill(-1);
    const firstOut = new Int32Array(count).fill(-1);
    this.fail = fail;
    const order = [0];
    const reached = (v: number) => {
      const f = fail[v]!;
      output[v] = ends[f]!.length > 0 ? f : output[f]!;
      firstOut[v] = ends[v]!.length > 0 ? v : output[v]!;
      order.push(v);
    };
    for (let q = 0; q < order.length; q++) {
      const u = order[q]!;
      const f = fail[u]!;
      for (let col = 1; col < w; col++) {
        const v = table[u * w + col]!;
        // The failure target is shallower, so its row is already complete.
        const viaFail = u === 0 ? 0 : table[f * w + col]!;
        if (v !== 0 && parent[v] === u) {
          fail[v] = viaFail;
          reached(v);
        } else table[u * w + col] = viaFail;
      }
      for (const [c, v] of this.wide.get(u) ?? []) {
        fail[v] = u === 0 ? 0 : this.stepWide(f, c);
        reached(v);
      }
    }
    this.output = output;
    this.firstOut = firstOut;
  }

  private stepWide(state: number, c: number): number {
    for (;;) {
      const n = this.wide.get(state)?.get(c);
      if (n !== undefined) return n;
      if (state === 0) return 0;
      state = this.fail[state]!;
    }
  }

  /**
   * Reports each literal occurring in `text`. With `fold`, the text is matched as
   * `text.toLowerCase()` would be: ASCII is folded on the fly (no copy) and a text with any
   * other character is lowered and scanned again, since lowering it is not per character.
   */
  scan(text: string, sink: LiteralSink, fold = false): void {
    const { table, width, columns, firstOut, output, ends } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c < 128) {
        if (fold && c >= 65 && c <= 90) c += 32;
        state = table[state * width + columns[c]!]!;
      } else if (fold) {
        this.scan(text.toLowerCase(), sink, false);
        return;
      } else state = this.stepWide(state, c);
      for (let s = firstOut[state]!; s >= 0; s = output[s]!) {
        const here = ends[s]!;
        for (let k = 0; k < here.length; k++) sink.hit(here[k]!);
      }
    }
  }
}
