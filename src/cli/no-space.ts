/**
 * A full disk on the command line: exit 7 (exit-codes.ts) and one line naming what could not
 * be written, `cannot write <what>: no space left on the disk`. The service's own text says
 * "the data directory's disk" without naming it; here the directory is named.
 */
import { isNoSpace, noSpaceError, type TaeError } from '../errors/index.js';

export const cannotWrite = (what: string, cause?: unknown): TaeError =>
  noSpaceError(`cannot write ${what}: no space left on the disk`, cause);

/** `e` as the data directory's full disk when it means one, else `e` unchanged. */
export const inDataDir = (e: unknown, dir: string): unknown =>
  isNoSpace(e) ? cannotWrite(`to the data directory ${dir}`, e) : e;

/**
 * The line for a full disk that no command named (it escaped every place that knows what it
 * was writing): the path when the error carries one, else the error's own words.
 */
export function unnamedNoSpace(e: unknown): string {
  const path = (e as { path?: unknown }).path;
  if (typeof path === 'string') return `cannot write ${path}: no space left on the disk`;
  return `no space left on the disk (${e instanceof Error ? e.message : String(e)})`;
}
