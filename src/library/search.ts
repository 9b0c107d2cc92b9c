/**
 * `search(source, request)`: the spec's search endpoint as a function. `source` is an index
 * from `buildIndex` (searched as is) or `{ files, … }` (indexed into a temporary index that
 * is removed once answered: build once with `buildIndex` to search the same files again).
 * The request is checked before anything is built.
 */
import { TaeError } from '../errors/index.js';
import type { EventTableResponse, RebuiltJobResponse, SearchResponse } from '../search/index.js';
import { build, checkSourceOptions, type IndexSourceOptions } from './build-index.js';
import { checkedQuery, type EvtxIndex, type IndexSearchRequest, OpenIndex } from './evtx-index.js';

/** An index from `buildIndex`, or the files to index for this one search. */
export type SearchSource = EvtxIndex | IndexSourceOptions;

/**
 * Answers the search endpoint's request over an index from `buildIndex` or over `{ files }`.
 *
 * @example
 * const { insights } = await search({ files: ['Security.evtx'] }, { search: 'administrator', browse_events: true });
 * for (const [cells, data] of insights[0]?.IndexTable.data ?? []) console.log(cells[1], data.TargetUserName);
 */
export function search(
  source: SearchSource,
  request: IndexSearchRequest & { readonly browse_events: true },
): Promise<EventTableResponse>;
export function search(
  source: SearchSource,
  request: IndexSearchRequest & { readonly browse_events: false },
): Promise<RebuiltJobResponse>;
export function search(source: SearchSource, request: IndexSearchRequest): Promise<SearchResponse>;
export async function search(source: SearchSource, request: IndexSearchRequest): Promise<SearchResponse> {
  if (source instanceof OpenIndex) return source.search(request);
  if (source === null || typeof source !== 'object')
    throw new TaeError('INVALID_ARGUMENT', 'source must be an index from buildIndex or { files: [paths] }');
  checkSourceOptions(source);
  checkedQuery(request);
  const index = await build(source);
  try {
    return await index.search(request);
  } finally {
    index.close();
  }
}
