/**
 * The CLI's one table of exit codes (README "Exit codes"), and how a run that finished picks
 * its code. Usage (2), internal (4), locked (6) and no-space (7) errors stop a run and are
 * returned by main.ts.
 */
export const EXIT = {
  OK: 0,
  /** A finding at or above `--fail-on` (or any match with `--fail-on-match`). */
  FINDINGS: 1,
  USAGE: 2,
  /** An input could not be read at all (or rules did not load, or the engine refused). */
  INPUT: 3,
  INTERNAL: 4,
  /** Some records could not be decoded; outputs for what was decoded were written. */
  DECODE_LOSS: 5,
  /** Another process holds the data directory (its `tae serve`); the message names its pid. */
  LOCKED: 6,
  /** No space left on a disk written to (an output file, standard output, the data directory). */
  NO_SPACE: 7,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface RunOutcome {
  /** Inputs that could not be read at all. */
  readonly unreadable: number;
  /** Whether records were lost in inputs that were read (error-severity diagnostics). */
  readonly recordsLost: boolean;
  /** Whether a finding reached the `--fail-on` threshold. */
  readonly findings?: boolean;
}

/**
 * The most serious outcome wins: an unreadable input (3), then lost records (5), then
 * findings (1). Incomplete input outranks findings because the findings of a partial read are
 * themselves partial; both are non-zero, so a `--fail-on` gate fails either way.
 */
export function runExit(o: RunOutcome): ExitCode {
  if (o.unreadable > 0) return EXIT.INPUT;
  if (o.recordsLost) return EXIT.DECODE_LOSS;
  return o.findings === true ? EXIT.FINDINGS : EXIT.OK;
}
