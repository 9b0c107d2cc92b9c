/**
 * The spec's insight objects (Timeline, Table, IndexTable, Chart, Graph, Metadata, Error), their
 * constructors and exact-shape validation, pure and in one place: the analysis builders, the
 * jobs, search, report, CLI and service all take insights from here.
 */
export { insightProblems } from './check.js';
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
  isErrorInsight,
  type MetadataInsight,
  metadataInsight,
  type TableInsight,
  type TimelineEntry,
  type TimelineInsight,
  tableInsight,
  timelineInsight,
} from './shapes.js';
