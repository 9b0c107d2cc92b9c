/**
 * threat-analysis-engine: offline analysis of Windows event logs. The front door: `parseEvtx`,
 * `runSigma`, `runYara`, `lookup` and `search` (with `buildIndex`), each with one validated
 * options object and coded errors, and `sigmaHits` for per-event Sigma results. More of each
 * area, the Engine and the HTTP twin come from the subpaths (`threat-analysis-engine/evtx`, `/sigma`, `/yara`, `/lookup`, `/search`,
 * `/service`, `/http`).
 *
 * @module threat-analysis-engine
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import './runtime/index.js';

export {
  ERROR_CODES,
  type ErrorBodyFormat,
  type ErrorCode,
  isTaeError,
  TaeError,
  type TaeErrorOptions,
} from './errors/index.js';
export type {
  DecodedChunk,
  Diagnostic,
  DiagnosticCode,
  EventFieldValue,
  EvtxEvent,
  ParsedRecord,
  RecordOutput,
} from './evtx/index.js';
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
} from './insights/index.js';
export {
  type BuildIndexOptions,
  buildIndex,
  type EvtxIndex,
  type IndexMatchesRequest,
  type IndexSearchRequest,
  type IndexSigmaRules,
  type IndexSourceOptions,
  type SearchSource,
  type SigmaHit,
  type SigmaHitsOptions,
  search,
  sigmaHits,
} from './library/index.js';
export {
  type LookupFilter,
  type LookupModule,
  type LookupOptions,
  type LookupRequest,
  type LookupResult,
  lookup,
} from './lookup/index.js';
export {
  DecodePool,
  type EvtxParse,
  type EvtxSource,
  type ParseEvtxOptions,
  type ParseStats,
  parseEvtx,
} from './parse/index.js';
export type { EventTableResponse, RebuiltJobResponse, SearchFilter, SearchResponse } from './search/index.js';
export {
  type CompiledSigma,
  type CorrelationCondition,
  compileRuleSet,
  type EvidenceField,
  type LoadResult,
  type LogSource,
  loadRules,
  type RelatedRule,
  type RuleSet,
  type RuleSetCoverage,
  type RuleSetStats,
  type RuleStats,
  type RunSigmaOptions,
  runSigma,
  type SigmaCommunityRules,
  type SigmaCorrelation,
  type SigmaDataRequest,
  type SigmaDataResponse,
  type SigmaDataResult,
  type SigmaFilter,
  type SigmaLevel,
  type SigmaRule,
  type VariantStats,
} from './sigma/index.js';
export {
  type RunYaraOptions,
  runYara,
  type YaraDataElement,
  type YaraDataRequest,
  type YaraDataResponse,
  type YaraOperation,
} from './yara/index.js';
