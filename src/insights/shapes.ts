/**
 * The spec's insight objects, exactly shaped: each is an object with one key naming its type.
 * Constructors copy nothing and add nothing, so what they return serialises as the spec shows.
 */

export const IMPORTANCE = ['Informational', 'Low', 'Medium', 'High', 'Critical'] as const;
export type Importance = (typeof IMPORTANCE)[number];

/** The spec's category vocabulary (`Yara` only appears in Yara results). */
export const CATEGORIES = [
  'General',
  'Authentication',
  'Network',
  'Persistence',
  'Process',
  'Sigma',
  'Yara',
] as const;
export type Category = (typeof CATEGORIES)[number];

export interface TimelineEntry {
  /** Unix milliseconds: when this kind of event was first observed. */
  timestamp_start: number;
  /** Unix milliseconds: when it was last seen. */
  timestamp_end: number | null;
  /** The reference record (the earliest event of the group); 0 when none exists. */
  record_id: number;
  short_name: string;
  description: string;
  category: Category;
  importance: Importance;
}

export const INDEX_TABLE_COLUMNS = [
  'Event ID',
  'Record ID',
  'Timestamp',
  'Provider',
  'Computer',
  'Message',
  'Event Data',
] as const;

/** [event id, record id, `YYYY-MM-DD HH:MM:SS`, provider, computer, message] and the event data. */
export type IndexTableRow = [[string, string, string, string, string, string], Record<string, string>];

export interface GraphMetadata {
  _stats_original_nodes: string[];
  _stats_optimized_nodes: string[];
  /** One key per summary node: the original nodes it replaced. */
  [summary: `summary_${string}`]: string[];
}

export interface TimelineInsight {
  Timeline: { title: string; data: TimelineEntry[]; category: string };
}
export interface TableInsight {
  Table: { title: string; data: string[][]; category: string };
}
export interface IndexTableInsight {
  IndexTable: { title: string; data: IndexTableRow[]; columns: string[]; category: string };
}
export interface ChartInsight {
  Chart: { title: string; data: [string, number][]; category: string; display_mode: 'Chart' };
}
export interface GraphInsight {
  Graph: { title: string; data: string; graph_metadata: GraphMetadata; category: string };
}
export interface MetadataInsight {
  Metadata: { title: string; data: Record<string, string>; category: string };
}
export interface ErrorInsight {
  Error: { message: string };
}

export type Insight =
  | TimelineInsight
  | TableInsight
  | IndexTableInsight
  | ChartInsight
  | GraphInsight
  | MetadataInsight
  | ErrorInsight;

export const INSIGHT_TYPES = [
  'Timeline',
  'Table',
  'IndexTable',
  'Chart',
  'Graph',
  'Metadata',
  'Error',
] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

/** The type key of an insight. */
export function insightType(i: Insight): InsightType {
  if ('Timeline' in i) return 'Timeline';
  if ('Table' in i) return 'Table';
  if ('IndexTable' in i) return 'IndexTable';
  if ('Chart' in i) return 'Chart';
  if ('Graph' in i) return 'Graph';
  if ('Metadata' in i) return 'Metadata';
  return 'Error';
}

export const timelineInsight = (
  title: string,
  data: TimelineEntry[],
  category: Category,
): TimelineInsight => ({
  Timeline: { title, data, category },
});

/** A table whose first row is the column names. */
export const tableInsight = (
  title: string,
  columns: readonly string[],
  rows: string[][],
  category: Category,
): TableInsight => ({ Table: { title, data: [[...columns], ...rows], category } });

export const indexTableInsight = (
  title: string,
  data: IndexTableRow[],
  category: Category,
): IndexTableInsight => ({
  IndexTable: { title, data, columns: [...INDEX_TABLE_COLUMNS], category },
});

export const chartInsight = (title: string, data: [string, number][], category: Category): ChartInsight => ({
  Chart: { title, data, category, display_mode: 'Chart' },
});

export const graphInsight = (
  title: string,
  dot: string,
  graph_metadata: GraphMetadata,
  category: Category,
): GraphInsight => ({ Graph: { title, data: dot, graph_metadata, category } });

export const metadataInsight = (
  title: string,
  data: Record<string, string>,
  category: Category,
): MetadataInsight => ({ Metadata: { title, data, category } });

export const errorInsight = (message: string): ErrorInsight => ({ Error: { message } });

export const isErrorInsight = (i: Insight): i is ErrorInsight => 'Error' in i;
