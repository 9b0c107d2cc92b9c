/**
 * The spec's result elements for YARA: Table, Metadata and Error insights (each an object
 * with exactly one key naming its type) and the data endpoint's no-match element.
 */
import type { YaraRuleMatch } from './protocol.js';

export const YARA_CATEGORY = 'Yara';
/** The Yara file job's table (spec: "Results of a Yara file job"). */
export const FILE_TABLE_TITLE = 'Yara Analysis Results';
/** Data endpoint tables; the spec shows no titles for them. */
export const CUSTOM_TABLE_TITLE = 'Yara Custom Rule Results';
export const COMMUNITY_TABLE_TITLE = 'Yara Community Rule Results';
export const METADATA_TITLE = 'Rule metadata';
/** The `File` cell for data supplied inline: the request field that carried it. */
export const TEST_DATA_LABEL = 'test_data';
/** The data endpoint's element when no rule matched. */
export const NO_MATCH_MESSAGE = 'No Yara rules matched the test data';

export const FILE_COLUMNS = ['File', 'Rule', 'Description', 'Author'] as const;
export const CUSTOM_COLUMNS = ['File', 'Rule'] as const;
export const COMMUNITY_COLUMNS = ['File', 'Rule', 'Description', 'Author', 'Tags'] as const;

export interface YaraTable {
  readonly title: string;
  /** Rows of strings; the first row holds the column names. */
  readonly data: readonly (readonly string[])[];
  readonly category: typeof YARA_CATEGORY;
}

export interface YaraRuleMetadata {
  readonly title: typeof METADATA_TITLE;
  readonly data: {
    /** The compiler's warning reports, blank-line separated; empty when there are none. */
    readonly warnings: string;
    /** The custom rule as the caller sent it (decoded). */
    readonly custom_rule: string;
  };
  readonly category: typeof YARA_CATEGORY;
}

export type YaraInsight =
  | { readonly Table: YaraTable }
  | { readonly Metadata: YaraRuleMetadata }
  | { readonly Error: { readonly message: string } };

/** An element of the data endpoint's `results`: an insight, or `{ message }` when nothing matched. */
export type YaraDataElement = YaraInsight | { readonly message: string };

export interface YaraDataResponse {
  readonly results: readonly YaraDataElement[];
}

export const tableInsight = (title: string, data: readonly (readonly string[])[]): YaraInsight => ({
  Table: { title, data, category: YARA_CATEGORY },
});

export const metadataInsight = (warnings: string, customRule: string): YaraInsight => ({
  Metadata: { title: METADATA_TITLE, data: { warnings, custom_rule: customRule }, category: YARA_CATEGORY },
});

export const errorInsight = (message: string): YaraInsight => ({ Error: { message } });

/** A meta value by key, case-insensitively (`description`, `Description`), as text. */
export function metaText(match: YaraRuleMatch, key: string): string {
  const wanted = key.toLowerCase();
  for (const [k, v] of Object.entries(match.meta)) if (k.toLowerCase() === wanted) return String(v);
  return '';
}

export type RowShape = 'file' | 'custom' | 'community';

/** One row per matching rule, in the column order of its table. */
export function matchRow(shape: RowShape, file: string, m: YaraRuleMatch): string[] {
  switch (shape) {
    case 'file':
      return [file, m.rule, metaText(m, 'description'), metaText(m, 'author')];
    case 'custom':
      return [file, m.rule];
    case 'community':
      return [file, m.rule, metaText(m, 'description'), metaText(m, 'author'), m.tags.join(', ')];
    default:
      return shape satisfies never;
  }
}

export const timeoutMessage = (timeoutMs: number): string =>
  `Yara scan timed out after ${Math.ceil(timeoutMs / 1000)} s: a rule took longer than the scan timeout`;

/** The data endpoint's request, compile and scan together, took longer than its time limit. */
export const timeLimitMessage = (limitMs: number): string =>
  `Yara analysis stopped after ${limitMs / 1000} s: the request exceeded the data endpoint's time limit`;
