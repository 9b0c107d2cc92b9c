/**
 * Insights from decoded EVTX events, pure: the incremental analyzer behind a parse job's result
 * types (Overview, Process Inference Graph, Key Event Timeline, Process, Network, Authentication,
 * Persistence), the spec's insight shapes, message rendering and record de-duplication.
 */
export {
  type AnalysisResults,
  type Analyzer,
  type AnalyzerOptions,
  createAnalyzer,
  flattenResults,
} from './analyzer.js';
export { insightProblems } from './check-insight.js';
export { contentHash, RecordSet } from './dedup.js';
export { importanceOfSigma } from './importance.js';
export { indexTableRow } from './index-row.js';
export {
  CATEGORIES,
  type Category,
  type ChartInsight,
  chartInsight,
  type ErrorInsight,
  errorInsight,
  type GraphInsight,
  type GraphMetadata,
  graphInsight,
  IMPORTANCE,
  type Importance,
  INDEX_TABLE_COLUMNS,
  INSIGHT_TYPES,
  type IndexTableInsight,
  type IndexTableRow,
  type Insight,
  type InsightType,
  indexTableInsight,
  insightType,
  type MetadataInsight,
  metadataInsight,
  type TableInsight,
  type TimelineEntry,
  type TimelineInsight,
  tableInsight,
  timelineInsight,
} from './insights.js';
export { type DescribeEvent, renderMessage, resolveParameters, summarizeFields } from './message.js';
export {
  createSigmaPass,
  type EventAdded,
  type SigmaPass,
  type SigmaPassOptions,
  type SigmaPassRules,
} from './sigma-pass.js';
export { clip, formatTime } from './text.js';
export {
  type EventSource,
  RESULT_TYPES,
  type ResultType,
  type SigmaMatchInput,
  sigmaRuleRef,
} from './types.js';
