/**
 * What a command prints, independent of the format: named columns (a machine key for
 * JSON/CSV and a label for the human table) and rows of scalar cells. Rows that happened at a
 * time can also say how to appear on a Timesketch timeline.
 */

/**
 * A cell: a scalar, or an object of texts (an event's data: JSON formats keep it an object,
 * CSV writes it as JSON, the table as `name=value; …`).
 */
export type Cell = string | number | boolean | null | Readonly<Record<string, string>>;

export interface Column {
  /** snake_case: JSON keys, CSV header and Timesketch attribute names. */
  readonly key: string;
  /** The human table's header. */
  readonly label: string;
  /**
   * A path: the table cuts its start, not its end, so files deep in one folder stay told apart
   * by their names (cut at the end, 593 paths all read `/work/…/Deep…`).
   */
  readonly path?: boolean;
}

export type Row = Readonly<Record<string, Cell>>;

/** A row's place on a Timesketch timeline; rows without a time are left out of it. */
export interface TimelinePoint {
  /** Unix milliseconds. */
  readonly time: number;
  readonly message: string;
  /** What the time means (`Event Recorded`, `First Seen`…). */
  readonly description: string;
}

export interface RecordSet {
  readonly columns: readonly Column[];
  readonly rows: readonly Row[];
  readonly timeline?: (row: Row) => TimelinePoint | undefined;
  /** Printed by the table format when there are no rows. */
  readonly empty?: string;
}

export const column = (key: string, label: string): Column => ({ key, label });
export const pathColumn = (key: string, label: string): Column => ({ key, label, path: true });

/** ISO 8601 UTC with milliseconds, or null for a missing time. */
export const isoTime = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
