/** What the correlation engine consumes (base-rule matches) and produces (hits). */
import type { SigmaEvent } from '../event.js';
import type { SigmaCorrelation } from '../model.js';

/** The names a rule can be referenced by in a correlation's `rules` and `aliases`. */
export interface RuleRef {
  readonly id?: string;
  readonly name?: string;
  readonly title: string;
}

/** One event matched by one rule (or, when chaining, one hit of an inner correlation). */
export interface BaseMatch {
  readonly rule: RuleRef;
  /** Event time in ms since the Unix epoch. */
  readonly timestamp: number;
  readonly event: SigmaEvent;
  readonly recordId?: number;
}

export interface CorrelationHit {
  readonly correlation: SigmaCorrelation;
  /** The group-by field (or alias) values that define the group; `null` where absent. */
  readonly group: Readonly<Record<string, string | null>>;
  /** Time of the first and of the last base match in the window that fired. */
  readonly firstTimestamp: number;
  readonly lastTimestamp: number;
  /** The aggregate compared with the condition: a count, a sum, a mean, a percentile. */
  readonly value: number;
  /** Base matches in the window. */
  readonly matchCount: number;
  /** The correlated rules seen in the window, by the name the correlation uses. */
  readonly rules: readonly string[];
  /** Record ids of the window's matches, at most `MAX_RECORD_IDS`. */
  readonly recordIds: readonly number[];
}

export const MAX_RECORD_IDS = 100;

/** A base match reduced to what one correlation needs: its rule name, time and value. */
export interface WindowEntry {
  readonly ts: number;
  /** The referenced name (as written in the correlation's `rules`). */
  readonly rule: string;
  /** The numeric or textual value of `condition.field`, for value_* types. */
  readonly value: string | null;
  readonly recordId: number | undefined;
}

/** One window that satisfied the condition, in positions of the group's entry list. */
export interface Firing {
  readonly start: number;
  /** Inclusive. */
  readonly end: number;
  readonly value: number;
}
