/**
 * A scanner's arrays as a cache gives them back, checked before use: every index in range and
 * every failure and output chain ending, so a damaged entry can neither read outside its
 * arrays nor loop. Linear in the table's size (a SigmaHQ CommandLine table is about 3 M cells,
 * a few milliseconds); anything else is refused and the scanner built again.
 */
import { LiteralScanner, type ScannerData } from './literal-scan.js';

const isInt32 = (v: unknown): v is Int32Array => v instanceof Int32Array;

function inRange(a: ArrayLike<number>, low: number, high: number): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x < low || x >= high) return false;
  }
  return true;
}

/** Whether following `next` from every state stops (at a negative value or at `stop`). */
function chainsEnd(next: Int32Array, stop: number): boolean {
  // 0: not seen, 1: on the path being walked, 2: known to end.
  const mark = new Uint8Array(next.length);
  const path: number[] = [];
  for (let start = 0; start < next.length; start++) {
    let s = start;
    while (s >= 0 && s !== stop && mark[s] === 0) {
      mark[s] = 1;
      path.push(s);
      s = next[s]!;
    }
    if (s >= 0 && s !== stop && mark[s] === 1) return false;
    for (const p of path) mark[p] = 2;
    path.length = 0;
  }
  return true;
}

/** The scanner for `data` if it is a well-formed automaton over `literals` ids; else undefined. */
export function scannerFromData(data: unknown, literals: number): LiteralScanner | undefined {
  const d = data as Partial<ScannerData> | null;
  if (d === null || typeof d !== 'object' || d.literals !== literals) return undefined;
  const { width, columns, table, fail, firstOut, output, endStart, endIds, wide } = d;
  if (!Number.isInteger(width) || width! < 1 || width! > 129) return undefined;
  if (!(columns instanceof Uint8Array) || columns.length !== 128 || !inRange(columns, 0, width!))
    return undefined;
  if (!isInt32(fail) || !isInt32(firstOut) || !isInt32(output) || !isInt32(endStart) || !isInt32(endIds))
    return undefined;
  if (!isInt32(wide) || wide.length % 3 !== 0) return undefined;
  const count = fail.length;
  if (count < 1 || firstOut.length !== count || output.length !== count || endStart.length !== count + 1)
    return undefined;
  if (!(table instanceof Uint16Array || table instanceof Int32Array) || table.length !== count * width!)
    return undefined;
  if (!inRange(table, 0, count) || !inRange(fail, 0, count) || fail[0] !== 0) return undefined;
  if (!inRange(firstOut, -1, count) || !inRange(output, -1, count)) return undefined;
  if (endStart[0] !== 0 || endStart[count] !== endIds.length || !inRange(endIds, 0, literals))
    return undefined;
  for (let s = 0; s < count; s++) if (endStart[s + 1]! < endStart[s]!) return undefined;
  for (let i = 0; i < wide.length; i += 3) {
    const [s, c, n] = [wide[i]!, wide[i + 1]!, wide[i + 2]!];
    if (s < 0 || s >= count || n < 0 || n >= count || c < 128 || c > 0xffff) return undefined;
  }
  // `scan` walks output chains to -1, `stepWide` failure links to the root.
  if (!chainsEnd(output, -1) || !chainsEnd(fail, 0)) return undefined;
  return new LiteralScanner(d as ScannerData);
}
