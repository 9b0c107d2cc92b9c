/**
 * Insights from decoded EVTX events, pure: the incremental analyzer behind a parse job's result
 * types (Overview, Process Inference Graph, Key Event Timeline, Process, Network, Authentication,
 * Persistence), message rendering and record de-duplication. The insight shapes themselves
 * live in src/insights.
 */

export {
  type DescribeEvent,
  indexTableRow,
  renderMessage,
  resolveParameters,
  summarizeFields,
} from '../messages/index.js';
export {
  type AnalysisResults,
  type Analyzer,
  type AnalyzerOptions,
  createAnalyzer,
  flattenResults,
} from './analyzer.js';
export { PROCESSES_COLUMNS, PROCESSES_TITLE } from './builders/graph/processes-table.js';
export { SOURCES_COLUMNS, SOURCES_TITLE } from './builders/key-events.js';
export {
  PAYLOAD_YARA_COLUMNS,
  type PayloadMatchInput,
  type PayloadScanInput,
} from './builders/payload-yara.js';
export { contentHash, RecordSet } from './dedup.js';
export { Digester, type EventDigest } from './digest.js';
export { type DigestColumns, digestAt, digestColumns, digestCount } from './digest-columns.js';
export { importanceOfSigma } from './importance.js';
export {
  correlationErrorInsight,
  createSigmaPass,
  type EventAdded,
  type SigmaPass,
  type SigmaPassOptions,
  type SigmaPassResult,
  type SigmaPassRules,
} from './sigma-pass.js';
export { clip, formatTime } from './text.js';
export {
  type EventHead,
  type EventSource,
  RESULT_TYPES,
  type ResultType,
  type SigmaMatchInput,
  sigmaRuleRef,
} from './types.js';
