/**
 * `--profile-rules`: each rule's evaluation time and matches from the rule set's own counters
 * (time is sampled and extrapolated by the rule set), slowest first, on stderr and, for
 * `tae analyze -o`, in the JSON results as `rule_profile`.
 */
import { displayLine } from '../display/index.js';
import type { RuleSet } from '../sigma/index.js';
import { plural } from './common.js';
import { printErr } from './terminal.js';

export interface RuleProfileRow {
  readonly rule_id: string | null;
  readonly rule_title: string;
  readonly source: string;
  readonly milliseconds: number;
  readonly evaluations: number;
  readonly matches: number;
}

export function ruleProfile(ruleSet: RuleSet): RuleProfileRow[] {
  return ruleSet
    .stats()
    .map((s) => ({
      rule_id: s.rule.id ?? null,
      rule_title: s.rule.title,
      source: s.rule.source,
      milliseconds: Math.round(s.nanoseconds / 1000) / 1000,
      evaluations: s.evaluations,
      matches: s.matches,
    }))
    .sort(
      (a, b) =>
        b.milliseconds - a.milliseconds ||
        b.evaluations - a.evaluations ||
        b.matches - a.matches ||
        (a.source < b.source ? -1 : a.source > b.source ? 1 : 0),
    );
}

/** One line a rule, tab-separated after the prefix so it can be cut and sorted. */
export function printRuleProfile(rows: readonly RuleProfileRow[]): void {
  const lines = rows.map(
    (r) =>
      `tae: profile: ${r.milliseconds.toFixed(3)} ms\t${plural(r.evaluations, 'evaluation')}\t${plural(r.matches, 'match')}\t${displayLine(r.rule_id ?? '-')}\t${displayLine(r.rule_title.replace(/[\t\r\n]/g, ' '))}\n`,
  );
  printErr(`tae: profile: ${rows.length} rules, slowest first\n${lines.join('')}`);
}
