/**
 * Persistence: services, scheduled tasks, autostart registry values, WMI subscriptions,
 * startup-folder files, accounts and BITS jobs, one row per (mechanism, action, name, detail,
 * computer), in the order they first appeared.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE, Groups, Samples, Span, Tally, topText } from '../aggregate.js';
import type { Fact, PersistenceChange } from '../facts.js';
import { cleanRows, formatTime, oneLine } from '../text.js';
import type { Builder } from '../types.js';

interface ChangeStats {
  c: PersistenceChange;
  users: Tally;
  span: Span;
  records: Samples;
}

export const PERSISTENCE_COLUMNS = [
  'Mechanism',
  'Action',
  'Name',
  'Detail',
  'User',
  'Count',
  'First Seen',
  'Last Seen',
  'Computer',
  'Records',
] as const;

const MAX_ROWS = 2000;

export class PersistenceBuilder implements Builder {
  readonly resultType = 'Persistence' as const;
  readonly consumes = ['persistence'] as const;
  private readonly changes = new Groups<ChangeStats>(GROUPS_PER_TABLE);

  consume(f: Fact): void {
    if (f.kind !== 'persistence') return;
    const key = [f.mechanism, f.action, f.name.toLowerCase(), f.detail.toLowerCase(), f.computer].join(
      '\u0000',
    );
    const g = this.changes.get(key, () => ({
      c: f,
      users: new Tally(20),
      span: new Span(),
      records: new Samples(3),
    }));
    if (g === undefined) return;
    if (f.user) g.users.add(f.user);
    g.span.add(f.time, f.recordId);
    g.records.add(f.ref);
  }

  finish(): Insight[] {
    const rows = [...this.changes.map]
      .sort(([ka, a], [kb, b]) => {
        const ta = a.span.hasTime ? a.span.first : Number.POSITIVE_INFINITY;
        const tb = b.span.hasTime ? b.span.first : Number.POSITIVE_INFINITY;
        return ta - tb || a.span.record - b.span.record || (ka < kb ? -1 : ka > kb ? 1 : 0);
      })
      .slice(0, MAX_ROWS)
      .map(([, g]) => [
        g.c.mechanism,
        oneLine(g.c.action, 300),
        oneLine(g.c.name, 300) || '-',
        oneLine(g.c.detail, 500) || '-',
        topText(g.users, 3) || '-',
        String(g.span.count),
        formatTime(g.span.first),
        formatTime(g.span.last),
        g.c.computer,
        g.records.items.join(', '),
      ]);
    return [tableInsight('Persistence', PERSISTENCE_COLUMNS, cleanRows(rows), 'Persistence')];
  }
}
