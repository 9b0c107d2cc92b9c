/**
 * `tae search <files> [text]`: EVTX files searched in place, without an Engine or a job: the
 * library's `buildIndex` streams them into the event index a parse job builds, and the request
 * is the search endpoint's (same checks, same answers). The index is a temporary file
 * encrypted under a key held in memory, inside a directory only the user may enter
 * (`tae-search-<pid>-XXXXXX` in the system's temporary directory), removed when the command
 * ends: normally, on an error, and on SIGINT, SIGTERM or SIGHUP (exit 130, 143, 129); what a
 * SIGKILL leaves is swept by the next run (src/search/temp-dirs.ts).
 */
import { rmSync } from 'node:fs';
import { isTaeError } from '../errors/index.js';
import { buildIndex, type EvtxIndex, makeTempDir } from '../library/index.js';

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

export interface FileIndexOptions {
  readonly files: readonly string[];
  readonly sigma: boolean;
}

/**
 * Runs `use` with an index of `files`, then removes it whatever happens. A file that could
 * not be decoded is an Error insight of the index (`index.errors`), as in a job.
 */
export async function withFileIndex<T>(
  options: FileIndexOptions,
  use: (index: EvtxIndex) => Promise<T>,
): Promise<T> {
  const owned = makeTempDir('search'); // 0700: only the user may enter it
  const abort = new AbortController();
  let index: EvtxIndex | undefined;
  const remove = () => {
    try {
      index?.close();
    } catch {
      // closing is best effort: the directory goes anyway
    }
    rmSync(owned, { recursive: true, force: true });
  };
  const onSignal = (signal: keyof typeof SIGNALS) => {
    abort.abort();
    remove();
    process.exit(SIGNALS[signal]);
  };
  const handlers = Object.keys(SIGNALS).map((s) => {
    const handler = () => onSignal(s as keyof typeof SIGNALS);
    process.on(s, handler);
    return [s, handler] as const;
  });
  process.on('exit', remove);
  try {
    index = await buildIndex({
      files: options.files,
      tempDir: owned,
      signal: abort.signal,
      ...(options.sigma ? { sigma: 'community' as const } : {}),
    });
    return await use(index);
  } catch (e) {
    if (isTaeError(e) && e.code === 'CANCELLED') process.exitCode = SIGNALS.SIGINT;
    throw e;
  } finally {
    remove();
    process.off('exit', remove);
    for (const [s, handler] of handlers) process.off(s, handler);
  }
}
