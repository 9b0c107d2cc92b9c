/**
 * Overview: Event ID Metrics, Hayabusa's `eid-metrics` by computer as well: events per
 * channel, computer and event id, with their share of all events. Groups are capped; events
 * past the cap are counted in one `(other)` row so the counts still add up.
 */
import { type Insight, tableInsight } from '../../insights/index.js';
import { GROUPS_PER_TABLE } from '../aggregate.js';
import type { Fact } from '../facts.js';
import { PairMap } from '../pair-map.js';
import { cleanRows, oneLine } from '../text.js';
import type { Builder, EventHead } from '../types.js';

export const EVENT_ID_METRICS_COLUMNS = ['Channel', 'Computer', 'Event ID', 'Events', 'Percent'] as const;

const MAX_ROWS = 1000;

interface Log {
  readonly channel: string;
  readonly computer: string;
  readonly ids: Map<number, number>;
}

export class EventIdMetricsBuilder implements Builder {
  readonly resultType = 'Overview' as const;
  readonly consumes = [] as const;
  private readonly logs = new Map<string, Log>();
  /** The same logs found without joining the names (pair-map.ts). */
  private readonly byPair = new PairMap<Log>();
  private last: Log | undefined;
  private groups = 0;
  private other = 0;
  private total = 0;

  consume(_f: Fact): void {}

  /** Per event: one comparison while channel and computer stay the same, one Map update. */
  countEvent(e: EventHead): void {
    this.total++;
    let log = this.last;
    if (log === undefined || log.channel !== e.channel || log.computer !== e.computer) {
      log = this.byPair.get(e.channel, e.computer);
      if (log === undefined) {
        const key = `${e.channel}\u0000${e.computer}`;
        log = this.logs.get(key);
        if (log === undefined) {
          if (this.groups >= GROUPS_PER_TABLE) {
            this.other++;
            return;
          }
          log = { channel: e.channel, computer: e.computer, ids: new Map() };
          this.logs.set(key, log);
        }
        this.byPair.set(e.channel, e.computer, log);
      }
      this.last = log;
    }
    const n = log.ids.get(e.eventId);
    if (n !== undefined) log.ids.set(e.eventId, n + 1);
    else if (this.groups < GROUPS_PER_TABLE) {
      this.groups++;
      log.ids.set(e.eventId, 1);
    } else this.other++;
  }

  finish(): Insight[] {
    if (this.total === 0) return [];
    const channelTotals = new Map<string, number>();
    const rows: { channel: string; computer: string; id: number; n: number }[] = [];
    for (const log of this.logs.values())
      for (const [id, n] of log.ids) {
        rows.push({ channel: log.channel, computer: log.computer, id, n });
        channelTotals.set(log.channel, (channelTotals.get(log.channel) ?? 0) + n);
      }
    rows.sort(
      (a, b) =>
        channelTotals.get(b.channel)! - channelTotals.get(a.channel)! ||
        (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) ||
        b.n - a.n ||
        (a.computer < b.computer ? -1 : a.computer > b.computer ? 1 : 0) ||
        a.id - b.id,
    );
    const percent = (n: number) => `${((n / this.total) * 100).toFixed(2)}%`;
    const shown = rows.slice(0, MAX_ROWS);
    const rest = rows.slice(MAX_ROWS).reduce((s, r) => s + r.n, 0) + this.other;
    const data = shown.map((r) => [
      oneLine(r.channel, 200) || '(none)',
      oneLine(r.computer, 200) || '(none)',
      r.id < 0 ? '-' : String(r.id),
      String(r.n),
      percent(r.n),
    ]);
    if (rest > 0) data.push(['(other)', '(other)', '-', String(rest), percent(rest)]);
    return [tableInsight('Overview: Event ID Metrics', EVENT_ID_METRICS_COLUMNS, cleanRows(data), 'General')];
  }
}
