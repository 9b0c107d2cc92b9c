/**
 * The event index and search of EVTX parse jobs (`POST /analysis/winevtx/search`): a job's
 * decoded events in a self-contained SQLite database with trigram postings per block of rows,
 * built while the job runs; page-by-page search with the six filter operators; and the job's analysis
 * rebuilt for a time window. Where an index lives (a file, plain or encrypted) is the store's concern.
 */
import { indexTableInsight } from '../insights/index.js';
import type { EventIndex } from './event-index.js';
import type { EventTableResponse, SearchQuery } from './types.js';

export { fold, type IndexRow, indexRow, SEPARATOR } from '../rows/index.js';
export {
  type BuildTarget,
  type BuiltIndex,
  EventIndexBuilder,
  type EventIndexOptions,
  type EventSink,
  type SigmaRuleRef,
} from './builder.js';
export { EventIndex, type IndexMeta, type PlacedRow, type RowRange } from './event-index.js';
export { type RebuildOptions, rebuildInsights } from './rebuild.js';
export { type CheckedSearch, checkSearchRequest } from './request.js';
export { restoreEvent, type StoredEvent } from './restore.js';
export { INDEX_FORMAT } from './schema.js';
export { makeTempDir, sweepTempDirs, type TempDirKind } from './temp-dirs.js';
export {
  type EventFilter,
  type EventTableResponse,
  type FilterTarget,
  type RebuiltJobResponse,
  SEARCH_FIELDS,
  SEARCH_LIMITS,
  type SearchField,
  type SearchFilter,
  type SearchQuery,
  type SearchRequest,
  type SearchResponse,
} from './types.js';

/** `browse_events: true`: the requested page as one `Event Table` (category `General`). */
export const eventTable = (index: EventIndex, query: SearchQuery): EventTableResponse => ({
  insights: [indexTableInsight('Event Table', index.search(query), 'General')],
});
