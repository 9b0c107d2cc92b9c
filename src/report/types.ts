/** What a report is built from: a parse job's insights and, when Sigma ran, its rules and matches. */
import type { Insight } from '../insights/index.js';

/** One event a Sigma rule matched (or the first event of a correlation hit). */
export interface ReportMatch {
  /** 0 when there is no single record (a correlation hit without records). */
  readonly recordId: number;
  /** Unix ms; NaN when the event has no time. */
  readonly timestamp: number;
  readonly computer?: string;
  readonly channel?: string;
  readonly file?: string;
  /** The event's key fields (Sigma's `matchEvidence`), the matched ones marked. */
  readonly evidence?: readonly ReportEvidence[];
}

/** One field of a match's evidence: escaped, clipped text and the places the rule matched. */
export interface ReportEvidence {
  readonly name: string;
  readonly value: string;
  readonly matched: boolean;
  readonly spans: readonly (readonly [number, number])[];
}

/** A Sigma rule (or correlation) that matched, with what its YAML says about it. */
export interface ReportRule {
  readonly title: string;
  readonly id?: string;
  readonly level?: string;
  readonly status?: string;
  readonly description?: string;
  readonly author?: string;
  readonly tags?: readonly string[];
  readonly references?: readonly string[];
  readonly falsepositives?: readonly string[];
  /** Where the rule came from (`<pack>:<path>` or a file path). */
  readonly source?: string;
  /** `rule` or `correlation`. */
  readonly kind?: string;
  /** All matches, counted. */
  readonly matches: number;
  /** The first matches, in event order; at most a few hundred are shown. */
  readonly sample: readonly ReportMatch[];
}

export interface ReportInput {
  /** Shown in the title bar and the heading (default `Threat analysis report`). */
  readonly title?: string;
  /** Unix ms shown as the generation time; omit for a report without one (reproducible). */
  readonly generatedAt?: number;
  /** The job's insights, in result-type order (`flattenResults`). */
  readonly insights: readonly Insight[];
  /** Sigma rules that matched; omitted or empty when Sigma did not run or matched nothing. */
  readonly sigmaRules?: readonly ReportRule[];
  /** Whether Sigma ran at all (so "no matches" can be told from "not requested"). */
  readonly sigmaRan?: boolean;
  /**
   * The files analysed, for the summary's coverage; without it the Overview's `files` text is
   * read, which is cut after about 20,000 characters.
   */
  readonly files?: readonly string[];
}
