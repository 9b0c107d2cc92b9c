/**
 * Authentication: a logon summary by user, logon type and source address (else workstation), with
 * success and failure counts, failure reasons, the event ids behind each row and first/last seen.
 * Rows with failures come first.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Samples, Span, Tally, topText } from '../aggregate.js';
import type { AuthEvent, Fact } from '../facts.js';
import { cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder } from '../types.js';

interface LogonStats {
  a: AuthEvent;
  successes: number;
  failures: number;
  eventIds: Tally;
  workstations: Tally;
  reasons: Tally;
  span: Span;
  records: Samples;
}

export const LOGON_COLUMNS = [
  'User',
  'Logon Type',
  'Source Address',
  'Source Workstations',
  'Successes',
  'Failures',
  'Events',
  'Failure Reasons',
  'First Seen',
  'Last Seen',
  'Computer',
  'Records',
] as const;

const MAX_ROWS = 2000;

export class AuthenticationBuilder implements Builder {
  readonly resultType = 'Authentication' as const;
  readonly consumes = ['auth'] as const;
  private readonly logons = new Groups<LogonStats>(GROUPS_PER_TABLE);

  consume(f: Fact): void {
    if (f.kind !== 'auth') return;
    // Rows are per source address; workstation names split rows only when there is no address
    // (they are attacker-chosen: a guessing tool may send a new random name with every try).
    const source = f.address || `\u0001${f.workstation.toLowerCase()}`;
    const key = [f.user.toLowerCase(), f.logonType, source, f.computer].join('\u0000');
    const g = this.logons.get(key, () => ({
      a: f,
      successes: 0,
      failures: 0,
      eventIds: new Tally(30),
      workstations: new Tally(50),
      reasons: new Tally(20),
      span: new Span(),
      records: new Samples(3),
    }));
    if (g === undefined) return;
    if (f.outcome === 'success') g.successes++;
    else if (f.outcome === 'failure') g.failures++;
    g.eventIds.add(String(f.eventId));
    if (f.workstation) g.workstations.add(f.workstation);
    if (f.reason) g.reasons.add(f.reason);
    g.span.add(f.time, f.recordId);
    g.records.add(f.ref);
  }

  finish(): Insight[] {
    const rows = [...this.logons.map]
      .sort(
        ([ka, a], [kb, b]) =>
          b.failures - a.failures ||
          b.successes - a.successes ||
          b.span.count - a.span.count ||
          (ka < kb ? -1 : ka > kb ? 1 : 0),
      )
      .slice(0, MAX_ROWS)
      .map(([, g]) => [
        oneLine(g.a.user, 300) || '-',
        g.a.logonType,
        oneLine(g.a.address, 100) || '-',
        topText(g.workstations, 3) || '-',
        String(g.successes),
        String(g.failures),
        topText(g.eventIds, 10),
        topText(g.reasons, 5) || '-',
        formatTime(g.span.first),
        formatTime(g.span.last),
        g.a.computer,
        g.records.items.join(', '),
      ]);
    return [tableInsight('Authentication', LOGON_COLUMNS, cleanRows(rows), 'Authentication')];
  }
}
