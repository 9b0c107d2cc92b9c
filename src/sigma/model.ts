/** The loaded documents: detection rules, correlation rules and filters (§1.1). */
import type { Condition } from './condition/parse.js';
import type { Detection } from './detection.js';
import type { SigmaEvent } from './event.js';
import type { YamlMap } from './yaml.js';

export type SigmaLevel = 'informational' | 'low' | 'medium' | 'high' | 'critical';
/** The levels from the least to the most severe. */
export const LEVELS = [
  'informational',
  'low',
  'medium',
  'high',
  'critical',
] as const satisfies readonly SigmaLevel[];
/** 0 … 4 for the five levels (and timeline importances, case-insensitively); -1 for none. */
export const levelRank = (level: string | null | undefined): number =>
  LEVELS.indexOf(String(level ?? '').toLowerCase() as SigmaLevel);
export const STATUSES = ['stable', 'test', 'experimental', 'deprecated', 'unsupported'] as const;
export type SigmaStatus = (typeof STATUSES)[number];

export interface LogSource {
  readonly product?: string;
  readonly category?: string;
  readonly service?: string;
  readonly definition?: string;
  /** Any other key (custom log source attributes are allowed by the spec). */
  readonly extra: Readonly<Record<string, string>>;
}

export interface RelatedRule {
  readonly id: string;
  readonly type: string;
}

/** What every document type shares. Unknown top-level keys stay reachable through `raw`. */
export interface RuleMeta {
  readonly title: string;
  readonly id?: string;
  readonly name?: string;
  readonly status?: SigmaStatus;
  readonly level?: SigmaLevel;
  readonly description?: string;
  readonly author?: string;
  readonly date?: string;
  readonly modified?: string;
  readonly license?: string;
  readonly tags: readonly string[];
  readonly references: readonly string[];
  readonly falsepositives: readonly string[];
  readonly fields: readonly string[];
  readonly related: readonly RelatedRule[];
  /** Where it came from: the `source` given to the loader and the document's index in it. */
  readonly source: string;
  readonly document: number;
  /** The YAML document as parsed, for the rule library and rule cache. @internal */
  readonly raw: YamlMap;
}

/** Counters a run reads after evaluation; the engine only increments them. */
export interface RuleStats {
  evaluations: number;
  matches: number;
  /** Total evaluation time, filled only by runners that measure it. */
  nanoseconds: number;
}

export interface SigmaRule extends RuleMeta {
  readonly kind: 'rule';
  readonly logsource: LogSource;
  /** The compiled detection the matchers evaluate. @internal */
  readonly detection: Detection;
  readonly stats: RuleStats;
  /** Whether the event satisfies the detection; counts into `stats`. */
  matches(event: SigmaEvent): boolean;
}

export const CORRELATION_TYPES = [
  'event_count',
  'value_count',
  'temporal',
  'temporal_ordered',
  'value_sum',
  'value_avg',
  'value_percentile',
  'value_median',
] as const;
export type CorrelationType = (typeof CORRELATION_TYPES)[number];

export const COMPARE_OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
export type CorrelationOp = (typeof COMPARE_OPS)[number];

/**
 * A threshold. Several operators form a range (`{gt: 100, lte: 200}`), which the spec shows
 * and its schema allows; pySigma accepts only one. We follow the spec: the tests are AND'ed.
 */
export interface CorrelationCondition {
  readonly tests: readonly { readonly op: CorrelationOp; readonly value: number }[];
  /** The field value_* types aggregate. */
  readonly field?: string;
  /** For value_percentile (pySigma's `percentile:` key); defaults to 50. */
  readonly percentile?: number;
}

export interface SigmaCorrelation extends RuleMeta {
  readonly kind: 'correlation';
  readonly type: CorrelationType;
  /** Referenced rules by id or name (possibly other correlations). */
  readonly rules: readonly string[];
  readonly groupBy: readonly string[];
  readonly timespanText: string;
  readonly timespanMs: number;
  /** alias → (rule id or name → field in that rule's events). */
  readonly aliases: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** A threshold, or for temporal types pySigma's boolean expression over rule names. */
  readonly condition?:
    | CorrelationCondition
    | {
        readonly expression: string;
        /** The parsed expression the correlation evaluates. @internal */
        readonly tree: Condition;
      };
  /** Whether the referenced rules' own matches are reported too (default false). */
  readonly generate: boolean;
}

export interface SigmaFilter extends RuleMeta {
  readonly kind: 'filter';
  readonly logsource: LogSource;
  /** Rule ids or names the filter applies to; `'any'` for `rules: any` or an empty list. */
  readonly rules: readonly string[] | 'any';
  /** The compiled detection the matchers evaluate. @internal */
  readonly detection: Detection;
  /** pySigma semantics: the rule's condition AND this one, so exclusions are `not selection`. */
  matches(event: SigmaEvent): boolean;
}

export type SigmaDocument = SigmaRule | SigmaCorrelation | SigmaFilter;
