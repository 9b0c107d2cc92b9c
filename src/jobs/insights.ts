/**
 * Insight objects as jobs produce and store them: the spec's shapes, defined once in
 * src/analysis (each insight is an object with one key naming its type).
 */
import type { ErrorInsight, Insight } from '../analysis/index.js';

export {
  type Category as InsightCategory,
  errorInsight,
  type GraphMetadata,
  type Importance,
  INDEX_TABLE_COLUMNS,
  type IndexTableRow as IndexRow,
  type Insight,
  type InsightType,
  insightType,
  type TimelineEntry,
} from '../analysis/index.js';

export const isErrorInsight = (i: Insight): i is ErrorInsight => 'Error' in i;
