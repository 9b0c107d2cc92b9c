/**
 * A full disk on the command line: exit 7 (exit-codes.ts) and one line naming what could not
 * be written, `cannot write <what>: no space left on the disk` (errors' `cannotWrite`). The
 * service's own text says "the data directory's disk" without naming it; here it is named.
 */
import { cannotWrite, isNoSpace } from '../errors/index.js';

/** `e` as the data directory's full disk when it means one, else `e` unchanged. */
export const inDataDir = (e: unknown, dir: string): unknown =>
  isNoSpace(e) ? cannotWrite(`to the data directory ${dir}`, e) : e;

/**
 * The line for a full disk that no command named (it escaped every place that knows what it
 * was writing): the path when the error carries one, else the error's own words.
 */
export function unnamedNoSpace(e: unknown): string {
  const path = (e as { path?: unknown }).path;
  if (typeof path === 'string') return cannotWrite(path).message;
  return `no space left on the disk (${e instanceof Error ? e.message : String(e)})`;
}
