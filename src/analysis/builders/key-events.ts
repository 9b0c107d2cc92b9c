/**
 * A key event with where it happened: the timeline entry (the spec's exact shape) and the
 * host, `<channel>#<record>` reference and file of its reference record, which the spec's
 * entry has no field for. They travel beside the timeline as the `Key Event Timeline: Sources`
 * table, one row per entry in the same order (its `Entry` column is the entry's position,
 * from 1), so the report and the CLI can show a Computer column and name the record.
 */
import { type Insight, type TimelineEntry, tableInsight } from '../../insights/index.js';
import type { Span } from '../aggregate.js';
import { importanceRank } from '../importance.js';
import { cleanCell, shortChannel } from '../text.js';

export interface KeyEvent {
  readonly entry: TimelineEntry;
  readonly computer: string;
  /** `Security#4711`; '' when unknown (correlation hits). */
  readonly ref: string;
  readonly file: string;
}

export const SOURCES_TITLE = 'Key Event Timeline: Sources';
export const SOURCES_COLUMNS = ['Entry', 'Computer', 'Record', 'File'] as const;

/** `Security#12` for a record of a channel, '' without a record. */
export const refOf = (channel: string | undefined, recordId: number | undefined): string =>
  recordId ? `${shortChannel(channel ?? '')}#${recordId}` : '';

const byTime = (a: TimelineEntry, b: TimelineEntry): number =>
  a.timestamp_start - b.timestamp_start ||
  importanceRank(b.importance) - importanceRank(a.importance) ||
  (a.short_name < b.short_name ? -1 : a.short_name > b.short_name ? 1 : 0) ||
  a.record_id - b.record_id ||
  (a.description < b.description ? -1 : a.description > b.description ? 1 : 0);

const byKey = (a: KeyEvent, b: KeyEvent): number =>
  byTime(a.entry, b.entry) ||
  (a.computer < b.computer ? -1 : a.computer > b.computer ? 1 : 0) ||
  (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);

/** At most `max`, the most important first, shown in time order (then host, then file). */
export function keep(events: KeyEvent[], max: number): KeyEvent[] {
  if (events.length > max) {
    events.sort(
      (a, b) => importanceRank(b.entry.importance) - importanceRank(a.entry.importance) || byKey(a, b),
    );
    events.length = max;
  }
  return events.sort(byKey);
}

/** The sources table of `events` (already kept and ordered as the timeline lists them). */
export function sourcesInsight(events: readonly KeyEvent[]): Insight {
  const rows = events.map((k, i) => [
    String(i + 1),
    cleanCell(k.computer, 300),
    cleanCell(k.ref, 300),
    cleanCell(k.file, 1000),
  ]);
  return tableInsight(SOURCES_TITLE, SOURCES_COLUMNS, rows, 'General');
}

/**
 * Spans by the record they name, so a duplicate of that record read later from another file
 * (a shadow copy) can make the span name the smaller file name: which copy is read first
 * depends on the order of the inputs, and the timeline must not.
 */
export class SpanIndex {
  private readonly spans = new Map<string, Span[]>();
  /** Each span's key now: a span that moves to an earlier record leaves its old key, so the
   * index holds one key per span, not one per record a span ever named (the 1 GB job's 490k). */
  private readonly keyOf = new WeakMap<Span, string>();

  add(span: Span, computer: string, ms: number, recordId: number, ref: string, file: string): void {
    const before = span.ref;
    const beforeFile = span.file;
    span.add(ms, recordId, ref, file);
    if (ref === '' || (span.ref === before && span.file === beforeFile)) return;
    const old = this.keyOf.get(span);
    const key = `${computer}\u0000${ref}`;
    if (old === key) return;
    if (old !== undefined) {
      const list = this.spans.get(old)!;
      list.splice(list.indexOf(span), 1);
      if (list.length === 0) this.spans.delete(old);
    }
    this.keyOf.set(span, key);
    const list = this.spans.get(key);
    if (list === undefined) this.spans.set(key, [span]);
    else list.push(span);
  }

  /** A duplicate of a record seen before, read from `file`. */
  duplicate(computer: string, ms: number, ref: string, file: string): void {
    for (const span of this.spans.get(`${computer}\u0000${ref}`) ?? [])
      if (span.ref === ref && span.first === ms && file < span.file) span.file = file;
  }
}
