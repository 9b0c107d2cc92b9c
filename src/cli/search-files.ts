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
import { basename, join } from 'node:path';
import { debugLine, isTaeError } from '../errors/index.js';
import {
  buildIndex,
  buildKeyedIndex,
  type EvtxIndex,
  makeTempDir,
  openKeyedIndex,
} from '../library/index.js';
import {
  type CacheEntry,
  cacheEntry,
  forget,
  keep,
  readMeta,
  searchCacheBytes,
  touch,
} from './search-cache.js';

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

export interface FileIndexOptions {
  readonly files: readonly string[];
  readonly sigma: boolean;
  /** Use the index cache (search-cache.ts) when its bound is not 0. */
  readonly cache: boolean;
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
    const maxBytes = options.cache ? searchCacheBytes() : 0;
    const t0 = performance.now();
    const entry = maxBytes > 0 ? cacheEntry(options.files, options.sigma, maxBytes) : undefined;
    if (entry !== undefined)
      debugLine(
        `search index cache: digests of ${options.files.length} files in ${Math.round(performance.now() - t0)} ms`,
      );
    index = entry === undefined ? undefined : cached(entry);
    if (index === undefined && entry !== undefined)
      index = await buildCached(options, entry, owned, abort.signal);
    index ??= await buildIndex({
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

/** The cached index of the entry, or undefined (an entry that does not open is removed). */
function cached(entry: CacheEntry): EvtxIndex | undefined {
  const meta = readMeta(entry);
  if (meta === undefined) return undefined;
  try {
    const index = openKeyedIndex({ path: entry.index, key: entry.key, ...meta });
    touch(entry);
    debugLine(`search index cache: hit ${basename(entry.index)}`);
    return index;
  } catch {
    debugLine(`search index cache: ${basename(entry.index)} does not open; indexing again`);
    forget(entry);
    return undefined;
  }
}

/**
 * Builds the index in the run's own directory (removed on a signal), then keeps it in the
 * cache unless a file changed while it was read (its digests are taken again).
 */
async function buildCached(
  options: FileIndexOptions,
  entry: CacheEntry,
  owned: string,
  signal: AbortSignal,
): Promise<EvtxIndex> {
  const path = join(owned, 'events.sqlite');
  const built = await buildKeyedIndex(
    { files: options.files, path, signal, ...(options.sigma ? { sigma: 'community' as const } : {}) },
    entry.key,
  );
  const meta = { name: built.name, errors: built.errors };
  built.close();
  const unchanged = cacheEntry(options.files, options.sigma, entry.maxBytes)?.index === entry.index;
  const kept = unchanged && keep(entry, path, meta);
  debugLine(`search index cache: ${kept ? 'kept' : 'not kept'} ${basename(entry.index)}`);
  return openKeyedIndex({ path: kept ? entry.index : path, key: entry.key, ...meta });
}
