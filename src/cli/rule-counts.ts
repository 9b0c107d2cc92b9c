/**
 * How many Sigma rules a run loaded and how many it evaluates: a SigmaHQ checkout loads 3,141
 * rules of which about 2,400 apply to Windows event logs; a summary that said only "3141 rules"
 * let a reader believe every one of them looked at the logs.
 */
import type { LoadResult, RuleSet } from '../sigma/index.js';
import { plural } from './common.js';

export interface RuleCounts {
  /** Rules loaded and chosen by the triage filters. */
  readonly loaded: number;
  readonly correlations: number;
  /** Rules with at least one Windows event-log variant: the ones evaluated. */
  readonly run: number;
  /** Rules loaded but never evaluated, by the mapping's reason (`logsource.not_applicable`…). */
  readonly notRun: Readonly<Record<string, number>>;
  /** Rules and correlations the triage filters left out. */
  readonly leftOut: number;
}

export function ruleCounts(loaded: LoadResult, ruleSet: RuleSet, leftOut: number): RuleCounts {
  const run = new Set(ruleSet.variants.map((v) => v.rule)).size;
  const notRun: Record<string, number> = {};
  for (const d of ruleSet.diagnostics)
    if (d.code.startsWith('logsource.')) notRun[d.code] = (notRun[d.code] ?? 0) + 1;
  return { loaded: loaded.rules.length, correlations: loaded.correlations.length, run, notRun, leftOut };
}

const WHY: Readonly<Record<string, string>> = {
  'logsource.not_applicable': 'not for Windows event logs',
  'logsource.unsupported': 'for Windows sources with no event log',
  'logsource.unknown': 'of an unknown log source',
  'logsource.fields_unavailable': 'needing fields their events never carry',
};

/** `3141 rules, 2407 evaluated (726 not for Windows event logs, …)`, then correlations and filters. */
export function ruleCountsLabel(c: RuleCounts): string {
  const notRun = Object.entries(c.notRun)
    .filter(([, n]) => n > 0)
    .map(([code, n]) => `${n} ${WHY[code] ?? code}`);
  return (
    `${plural(c.loaded, 'rule')}` +
    (c.run === c.loaded ? '' : `, ${c.run} evaluated${notRun.length > 0 ? ` (${notRun.join(', ')})` : ''}`) +
    (c.correlations > 0 ? `, ${plural(c.correlations, 'correlation')}` : '') +
    (c.leftOut > 0 ? ` (${c.leftOut} left out by the rule filters)` : '')
  );
}
