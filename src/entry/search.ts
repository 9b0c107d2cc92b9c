/**
 * `threat-analysis-engine/search`: event indexes of EVTX files, built once (`buildIndex`) and
 * searched like the service's search endpoint (`search`), without an Engine or data directory.
 *
 * @module threat-analysis-engine/search
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export type {
  ChartInsight,
  ErrorInsight,
  GraphInsight,
  GraphMetadata,
  IndexTableInsight,
  IndexTableRow,
  Insight,
  MetadataInsight,
  TableInsight,
  TimelineEntry,
  TimelineInsight,
} from '../insights/index.js';
export {
  type BuildIndexOptions,
  buildIndex,
  type EvtxIndex,
  type IndexMatchesRequest,
  type IndexSearchRequest,
  type IndexSigmaRules,
  type IndexSourceOptions,
  type SearchSource,
  search,
} from '../library/index.js';
export type {
  EventTableResponse,
  RebuiltJobResponse,
  SearchFilter,
  SearchRequest,
  SearchResponse,
} from '../search/index.js';
