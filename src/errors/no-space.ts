/**
 * A full disk, however it shows: Node's `ENOSPC` (or `EDQUOT`, a quota that is full), SQLite's
 * `SQLITE_FULL` (better-sqlite3 sets it as `code`; SQLite turns a write's ENOSPC into it), or
 * our NO_SPACE. Errors are wrapped on their way up (`cause`), so the recogniser looks down
 * the chain. Errors that cross a thread lose every property but their message, so a thread
 * sends a `ThreadFailure` instead and the receiving side makes the coded error again.
 */
import { TaeError } from './index.js';

/** The one text of a full disk under the data directory, whichever entry point meets it. */
export const NO_SPACE_TEXT = "Insufficient storage: no space left on the data directory's disk";

const NO_SPACE_CODES: ReadonlySet<unknown> = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', 'NO_SPACE']);

/** Causes followed before giving up (a cycle of causes must not hang the caller). */
const MAX_DEPTH = 8;

/** Whether `e`, or an error it wraps, means that a write found no space left on its disk. */
export function isNoSpace(e: unknown): boolean {
  let at = e;
  for (let depth = 0; depth < MAX_DEPTH && typeof at === 'object' && at !== null; depth++) {
    if (NO_SPACE_CODES.has((at as { code?: unknown }).code)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** The NO_SPACE error of a write that names what it wrote: `cannot write <what>: no space left on the disk`. */
export function cannotWrite(what: string, cause?: unknown): TaeError {
  return new TaeError(
    'NO_SPACE',
    `cannot write ${what}: no space left on the disk`,
    cause === undefined ? {} : { cause },
  );
}

/** A failure as a thread reports it: structured cloning keeps an error's message, not its code. */
export interface ThreadFailure {
  readonly message: string;
  readonly noSpace: boolean;
}

export const threadFailure = (e: unknown): ThreadFailure => ({
  message: e instanceof Error ? e.message : String(e),
  noSpace: isNoSpace(e),
});

/** The coded error of a failure a thread reported: NO_SPACE for a full disk, else INTERNAL. */
export const fromThreadFailure = (f: ThreadFailure, what: string): TaeError =>
  new TaeError(f.noSpace ? 'NO_SPACE' : 'INTERNAL', `${what}: ${f.message}`);
