/**
 * Event indexes kept encrypted under a key the caller holds, for the CLI's index cache
 * (src/cli/search-cache.ts): built into a new file, and opened again by a later process that
 * derives the same key. Not on the package's front door: `buildIndex` keeps its two kinds
 * (a temporary encrypted index, or a plain file at `path`).
 */
import { randomUUID } from 'node:crypto';
import { TaeError } from '../errors/index.js';
import type { ErrorInsight } from '../insights/index.js';
import { INDEX_FORMAT, type PlacedRow } from '../search/index.js';
import { build, type IndexSourceOptions, namesOf } from './build-index.js';
import { type EvtxIndex, type IndexSearchRequest, OpenIndex } from './evtx-index.js';

/** What a cached index's key must change with: the index's format, and each file's name in it. */
export { INDEX_FORMAT, namesOf as indexFileNames };

/** Builds `files` into `path` (a new file), encrypted under `key` (32 bytes). */
export function buildKeyedIndex(
  options: IndexSourceOptions & { readonly path: string },
  key: Uint8Array,
): Promise<EvtxIndex> {
  if (key.length !== 32) throw new TaeError('INTERNAL', 'an index key is 32 bytes');
  return build(options, key);
}

/**
 * Opens an index `buildKeyedIndex` made; closing it leaves the file. A wrong key, or a file that
 * is not such an index, throws (SQLite's own error): the caller builds it again.
 */
export function openKeyedIndex(init: {
  readonly path: string;
  readonly key: Uint8Array;
  readonly name: string;
  readonly errors: readonly ErrorInsight[];
}): EvtxIndex {
  return new OpenIndex({ ...init, id: randomUUID(), tempDir: null, key: Buffer.from(init.key) });
}

/**
 * Rows of `index` (from `buildIndex` or this file) with their channel and file name: the page
 * `request` asks for, or with `all` every match in batches.
 */
export function placedRows(
  index: EvtxIndex,
  request: IndexSearchRequest,
  all: boolean,
): Generator<PlacedRow[]> {
  if (!(index instanceof OpenIndex)) throw new TaeError('INVALID_ARGUMENT', 'not an index from buildIndex');
  return index.placed(request, all);
}

/** How many events `request` matches in `index`, counted up to `cap`. */
export function countMatches(index: EvtxIndex, request: IndexSearchRequest, cap: number): number {
  if (!(index instanceof OpenIndex)) throw new TaeError('INVALID_ARGUMENT', 'not an index from buildIndex');
  return index.count(request, cap);
}
