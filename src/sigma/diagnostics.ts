/**
 * Why a rule did not load. The codes form a closed set so that callers (and the corpus
 * report) group by code, never by message text.
 */
export const DIAGNOSTIC_CODES = [
  'input.too_large',
  'yaml.syntax',
  'yaml.alias',
  'yaml.depth',
  'rule.not_mapping',
  'rule.unknown_type',
  'rule.missing_field',
  'rule.invalid_field',
  'detection.invalid',
  'condition.syntax',
  'condition.aggregation',
  'condition.unknown_identifier',
  'condition.empty_selector',
  /** Parentheses and `not`s nested deeper than MAX_CONDITION_DEPTH (limits.ts). */
  'condition.too_deep',
  'modifier.unknown',
  'modifier.invalid_combination',
  'value.invalid_type',
  'value.wildcard',
  'value.too_many_variants',
  'value.invalid_regex',
  'value.invalid_cidr',
  'placeholder.unresolved',
  'correlation.invalid',
  /** A correlation names a rule or correlation that is not loaded. */
  'correlation.reference',
  /** Correlations that reference each other in a loop. */
  'correlation.cycle',
  /** More base matches than the engine keeps for correlation (by count or by size). */
  'correlation.limit',
  /** More correlation hits than the engine keeps. */
  'correlation.hit_limit',
  'filter.invalid',
  /** The filter names no loaded rule, or none whose logsource it covers. */
  'filter.unused',
  /** Logsource mapping (`logsource/`): not a Windows event log (linux, aws, proxy, webserver…). */
  'logsource.not_applicable',
  /** A Windows log source with no EVTX channel (file_access/file_rename are ETW-only). */
  'logsource.unsupported',
  /** A category or service the mapping table does not know: reported, never guessed. */
  'logsource.unknown',
  /** Every variant was dropped: the rule needs fields its mapped events never carry. */
  'logsource.fields_unavailable',
  'internal',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export interface RuleDiagnostic {
  /** The file name or label the caller gave `loadRules`. */
  readonly source: string;
  /** 0-based index of the YAML document in the file. */
  readonly document?: number;
  readonly ruleId?: string;
  readonly title?: string;
  readonly code: DiagnosticCode;
  readonly message: string;
}

/**
 * Thrown while one document is being built and caught by the loader, which turns it into a
 * diagnostic for that document only: the first error of a rule is enough to reject it.
 */
export class RuleError extends Error {
  override readonly name = 'RuleError';
  constructor(
    readonly code: DiagnosticCode,
    message: string,
  ) {
    super(message);
  }
}

export function fail(code: DiagnosticCode, message: string): never {
  throw new RuleError(code, message);
}
