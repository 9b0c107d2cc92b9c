/**
 * Rule inputs named by a user (a pack to add, a `--rule` file, an `--exclude-file` list) are
 * statted before they are opened and refused unless regular files, or directories where a
 * directory is taken: opening a FIFO for reading blocks until a writer comes (for ever when
 * none does) and a device such as /dev/zero never ends. The read itself opens non-blocking and
 * checks again, so a file swapped for a FIFO after the stat cannot hang it either.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from 'node:fs';
import { fileKindOf, TaeError } from '../errors/index.js';

/** `cannot read rule PATH: REASON`; `context.reason` lets a caller word its own message. */
function refusal(path: string, what: string, reason: string, cause?: unknown): TaeError {
  return new TaeError('INPUT_UNREADABLE', `cannot read ${what} ${path}: ${reason}`, {
    context: { path, reason },
    ...(cause === undefined ? {} : { cause }),
  });
}

const errnoOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

function checkKind(path: string, what: string, st: Stats, directories: boolean): Stats {
  if (st.isFile() || (directories && st.isDirectory())) return st;
  const wanted = directories ? 'a regular file or directory' : 'a regular file';
  throw refusal(path, what, `it is ${fileKindOf(st)}, not ${wanted}`);
}

/**
 * The stats of `path` when it is a regular file (or, with `directories`, a directory);
 * otherwise an INPUT_UNREADABLE naming `what` and the path. Never opens it.
 */
export function statRuleInput(path: string, what: string, directories = false): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw refusal(path, what, errnoOf(e), e);
  }
  return checkKind(path, what, st, directories);
}

/** The UTF-8 text of the regular file `path`, refused as `statRuleInput` refuses. */
export function readRuleInput(path: string, what: string): string {
  statRuleInput(path, what);
  let fd: number;
  try {
    // O_NONBLOCK does nothing to a regular file; to a FIFO swapped in after the stat, it is
    // what keeps the open from waiting for a writer (Windows has no FIFOs and no flag).
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw refusal(path, what, errnoOf(e), e);
  }
  try {
    checkKind(path, what, fstatSync(fd), false);
    return readFileSync(fd, 'utf8');
  } catch (e) {
    throw e instanceof TaeError ? e : refusal(path, what, errnoOf(e), e);
  } finally {
    closeSync(fd);
  }
}
