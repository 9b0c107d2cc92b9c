/**
 * What a path must be before it is opened as a log: a regular file. A directory fails its
 * first read with EISDIR, a FIFO blocks the open until a writer comes and a device such as
 * /dev/zero never ends, so each is refused up front with a coded error naming the path.
 */
import { type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileKindOf, TaeError } from '../errors/index.js';

/** `cannot open PATH: ENOENT` (or EACCES, EIO…): the system's code names the reason. */
export function unreadableSource(path: string, e: unknown, doing: 'open' | 'read' = 'open'): TaeError {
  const code = (e as NodeJS.ErrnoException).code ?? String(e);
  return new TaeError('INPUT_UNREADABLE', `cannot ${doing} ${path}: ${code}`, {
    cause: e,
    context: { path },
  });
}

function refuse(path: string, st: Stats): TaeError {
  const what = fileKindOf(st);
  const why = st.isDirectory()
    ? 'it is a directory (directories are not searched: name the .evtx files in it)'
    : `it is ${what}, not a regular file`;
  return new TaeError('INPUT_UNREADABLE', `cannot open ${path}: ${why}`, { context: { path, kind: what } });
}

/** Its size, when `path` names a regular file (symbolic links followed); else a coded error. */
export async function checkSourceFile(path: string): Promise<number> {
  let st: Stats;
  try {
    st = await stat(path);
  } catch (e) {
    throw unreadableSource(path, e);
  }
  if (!st.isFile()) throw refuse(path, st);
  return st.size;
}

/** The same check, synchronous, for callers that sniff a file's first bytes themselves. */
export function checkSourceFileSync(path: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    throw unreadableSource(path, e);
  }
  if (!st.isFile()) throw refuse(path, st);
}
