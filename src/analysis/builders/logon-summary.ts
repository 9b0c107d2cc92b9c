/**
 * Overview: Logon Summary, Hayabusa's `logon-summary` as one table: Security 4624 (success),
 * 4625 (failure) and 4648 (explicit credentials) counted by user, logon type and source
 * (address, else workstation), with first and last time and the computers that logged them.
 * Failures first, then successes, then explicit credentials; most frequent first in each.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Span, Tally, topText } from '../aggregate.js';
import type { AuthEvent, Fact } from '../facts.js';
import { cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder } from '../types.js';

export const LOGON_SUMMARY_COLUMNS = [
  'Result',
  'User',
  'Logon Type',
  'Source',
  'Count',
  'First Seen',
  'Last Seen',
  'Computers',
  'Failure Reasons',
] as const;

const RESULTS: Readonly<Record<number, string>> = {
  4625: 'Failed',
  4624: 'Successful',
  4648: 'Explicit credentials',
};
const RESULT_ORDER = ['Failed', 'Successful', 'Explicit credentials'];
const MAX_ROWS = 1000;

interface LogonGroup {
  readonly result: string;
  readonly user: string;
  readonly logonType: string;
  readonly source: string;
  readonly span: Span;
  readonly computers: Tally;
  readonly reasons: Tally;
}

export class LogonSummaryBuilder implements Builder {
  readonly resultType = 'Overview' as const;
  readonly consumes = ['auth'] as const;
  private readonly groups = new Groups<LogonGroup>(GROUPS_PER_TABLE);

  consume(f: Fact): void {
    if (f.kind !== 'auth') return;
    const result = RESULTS[f.eventId];
    if (result === undefined) return;
    const source = sourceOf(f);
    const key = [result, f.user.toLowerCase(), f.logonType, source.toLowerCase()].join('\u0000');
    const g = this.groups.get(key, () => ({
      result,
      user: oneLine(f.user, 200) || '-',
      logonType: f.logonType || '-',
      source: oneLine(source, 200) || '-',
      span: new Span(),
      computers: new Tally(20),
      reasons: new Tally(10),
    }));
    if (g === undefined) return;
    g.span.add(f.time, f.recordId);
    if (f.computer) g.computers.add(f.computer);
    if (f.reason) g.reasons.add(f.reason);
  }

  finish(): Insight[] {
    if (this.groups.map.size === 0) return [];
    const groups = [...this.groups.map.values()].sort(
      (a, b) =>
        RESULT_ORDER.indexOf(a.result) - RESULT_ORDER.indexOf(b.result) ||
        b.span.count - a.span.count ||
        (a.user < b.user ? -1 : a.user > b.user ? 1 : 0) ||
        (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
        (a.logonType < b.logonType ? -1 : a.logonType > b.logonType ? 1 : 0),
    );
    const rows = groups
      .slice(0, MAX_ROWS)
      .map((g) => [
        g.result,
        g.user,
        g.logonType,
        g.source,
        String(g.span.count),
        formatTime(g.span.first),
        formatTime(g.span.last),
        topText(g.computers, 5) || '-',
        topText(g.reasons, 5) || '-',
      ]);
    return [
      tableInsight('Overview: Logon Summary', LOGON_SUMMARY_COLUMNS, cleanRows(rows), 'Authentication'),
    ];
  }
}

const sourceOf = (f: AuthEvent): string => f.address || f.workstation;
