/** threat-analysis-engine: offline analysis of Windows event logs. */

export {
  type AnalysisResults,
  type Analyzer,
  type AnalyzerOptions,
  CATEGORIES,
  createAnalyzer,
  type DescribeEvent,
  type EventSource,
  flattenResults,
  IMPORTANCE,
  INDEX_TABLE_COLUMNS,
  type Insight,
  type InsightType,
  importanceOfSigma,
  insightProblems,
  RESULT_TYPES,
  type ResultType,
  type SigmaMatchInput,
  type TimelineEntry,
} from './analysis/index.js';
export { type ErrorCode, isTaeError, TaeError } from './errors/index.js';
export {
  type Diagnostic,
  type DiagnosticCode,
  type EventFieldValue,
  type EvtxEvent,
  type EvtxFileHeader,
  type ParsedRecord,
  type RecordOutput,
  renderJson,
  renderXml,
  type XmlElement,
  type XmlNode,
} from './evtx/index.js';
export {
  createHttpHandler,
  DEFAULT_HTTP_LIMITS,
  type HttpOptions,
  type RunningServer,
  type ServeOptions,
  serve,
  UPLOAD_ALIAS,
} from './http/index.js';
export { LOOKUP_MODULES, type LookupDataset, type LookupResult, lookup } from './lookup/index.js';
export {
  DecodePool,
  defaultThreads,
  EvtxParse,
  type EvtxSource,
  type ParseEvtxOptions,
  type ParseStats,
  parseEvtx,
} from './parse/index.js';
export { buildReport, type ReportInput, type ReportMatch, type ReportRule } from './report/index.js';
export {
  openRuleLibrary,
  type RuleKind,
  type RuleLibrary,
  type RuleLibraryOptions,
} from './rules/index.js';
export {
  checkSearchRequest,
  EventIndex,
  type EventTableResponse,
  type RebuiltJobResponse,
  type SearchRequest,
  type SearchResponse,
} from './search/index.js';
export {
  type Auth,
  ENDPOINTS,
  Engine,
  type EngineOptions,
  ERROR_ROWS,
  errorResponse,
  issueToken,
  KEY_ERROR_HEADER,
  type KeyProblem,
} from './service/index.js';
export {
  type CorrelationHit,
  compileRuleSet,
  correlate,
  type LoadResult,
  loadRules,
  mapRule,
  type RuleDiagnostic,
  type RuleMatch,
  type RuleSet,
  type RuleVariant,
  runSigma,
  type SigmaDataRequest,
  type SigmaDataResponse,
  type SigmaEvent,
  type SigmaRule,
  sigmaEventFromEvtx,
} from './sigma/index.js';
export {
  type CompiledRuleSet,
  defaultYaraEngine,
  runYara,
  scanFiles,
  type YaraDataResponse,
  YaraEngine,
  type YaraEngineOptions,
} from './yara/index.js';
