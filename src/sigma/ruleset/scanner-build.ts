/** Builds a LiteralScanner's automaton: the trie in a flat table, then failure links and the DFA. */
import { LiteralScanner, stepWide } from './literal-scan.js';

interface Trie {
  readonly width: number;
  readonly columns: Uint8Array;
  readonly table: Uint16Array | Int32Array;
  readonly parent: Int32Array;
  readonly ends: number[][];
  readonly wide: Map<number, Map<number, number>>;
  readonly count: number;
}

/**
 * Children are written into the table; a cell left 0 has no child (the root is no one's
 * child). The literals' total length bounds the state count, so nothing is ever regrown.
 */
function trieOf(literals: readonly string[]): Trie {
  const columns = new Uint8Array(128);
  let w = 1;
  let states = 1;
  for (const literal of literals) {
    states += literal.length;
    for (let i = 0; i < literal.length; i++) {
      const c = literal.charCodeAt(i);
      if (c < 128 && columns[c] === 0) columns[c] = w++;
    }
  }
  const table = states <= 0xffff ? new Uint16Array(states * w) : new Int32Array(states * w);
  const parent = new Int32Array(states);
  const ends: number[][] = [[]];
  const wide = new Map<number, Map<number, number>>();
  let count = 1;
  literals.forEach((literal, id) => {
    if (literal.length === 0) return;
    let state = 0;
    for (let i = 0; i < literal.length; i++) {
      const c = literal.charCodeAt(i);
      let next: number | undefined;
      if (c < 128) next = table[state * w + columns[c]!]! || undefined;
      else next = wide.get(state)?.get(c);
      if (next === undefined) {
        next = count++;
        parent[next] = state;
        ends.push([]);
        if (c < 128) table[state * w + columns[c]!] = next;
        else {
          let m = wide.get(state);
          if (m === undefined) {
            m = new Map();
            wide.set(state, m);
          }
          m.set(c, next);
        }
      }
      state = next;
    }
    ends[state]!.push(id);
  });
  return { width: w, columns, table, parent, ends, wide, count };
}

/** Every literal gets the id of its position; empty literals are never reported. */
export function buildScanner(literals: readonly string[]): LiteralScanner {
  const trie = trieOf(literals);
  const { width: w, table, parent, ends, count } = trie;
  const fail = new Int32Array(count);
  const output = new Int32Array(count).fill(-1);
  const firstOut = new Int32Array(count).fill(-1);
  // Breadth-first: a failure target is shallower, so its row is already complete.
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
      const viaFail = u === 0 ? 0 : table[f * w + col]!;
      if (v !== 0 && parent[v] === u) {
        fail[v] = viaFail;
        reached(v);
      } else table[u * w + col] = viaFail;
    }
    for (const [c, v] of trie.wide.get(u) ?? []) {
      fail[v] = u === 0 ? 0 : stepWide(trie.wide, fail, f, c);
      reached(v);
    }
  }
  const endStart = new Int32Array(count + 1);
  for (let s = 0; s < count; s++) endStart[s + 1] = endStart[s]! + ends[s]!.length;
  const wide: number[] = [];
  for (const [s, m] of trie.wide) for (const [c, v] of m) wide.push(s, c, v);
  return new LiteralScanner({
    literals: literals.length,
    width: w,
    columns: trie.columns,
    table: table.length > count * w ? table.slice(0, count * w) : table,
    fail,
    firstOut,
    output,
    endStart,
    endIds: Int32Array.from(ends.flat()),
    wide: Int32Array.from(wide),
  });
}
