/**
 * The library's compositions of several areas for embedders: event indexes built from EVTX
 * files and searched without an Engine (`buildIndex`, `search`).
 */

export type { PlacedRow } from '../search/index.js';
/** For `tae search FILE`, whose own directory holds the index and goes on a signal. */
export { makeTempDir } from '../search/index.js';
export {
  type BuildIndexOptions,
  buildIndex,
  type IndexSourceOptions,
  MAX_INDEX_FILES,
} from './build-index.js';
export type { EvtxIndex, IndexMatchesRequest, IndexSearchRequest } from './evtx-index.js';
/** For the CLI's index cache only (not re-exported by the package's entries). */
export {
  buildKeyedIndex,
  countMatches,
  INDEX_FORMAT,
  indexFileNames,
  openKeyedIndex,
  placedRows,
} from './keyed-index.js';
export { type SearchSource, search } from './search.js';
export { type SigmaHit, type SigmaHitsOptions, sigmaHits } from './sigma-hits.js';
export type { IndexSigmaRules } from './sigma-rules.js';
