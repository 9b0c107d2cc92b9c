/**
 * What `tae search` prints for each event (issue 47): machine formats get the event as data
 * (ids as numbers, the event data as an object, the channel and the file it came from), the
 * human table the Event Table's seven columns with the event data shown from just before the
 * matched text, so the match is never cut off; and a line saying which events of how many
 * were shown and how to get the next page.
 */
import type { IndexTableRow } from '../insights/index.js';
import type { PlacedRow } from '../library/index.js';
import { cellText, type Format } from './formats.js';
import { type Cell, column, pathColumn, type RecordSet, type Row } from './records.js';

const TABLE_KEYS = ['event_id', 'record_id', 'timestamp', 'provider', 'computer', 'message', 'event_data'];
const LABELS: Readonly<Record<string, string>> = {
  event_id: 'Event ID',
  record_id: 'Record ID',
  timestamp: 'Timestamp',
  provider: 'Provider',
  computer: 'Computer',
  channel: 'Channel',
  message: 'Message',
  event_data: 'Event Data',
};
const MACHINE_KEYS = [
  'event_id',
  'record_id',
  'timestamp',
  'provider',
  'computer',
  'channel',
  'file',
  'message',
  'event_data',
];

/** Characters of event data the table shows before the match, when the match lies further in. */
const LEAD = 40;
/** The table's last column shows 160 characters (formats.ts): a match past this is moved in. */
const SHOWN = 150;

const numeric = (s: string): string | number => (/^\d{1,15}$/.test(s) ? Number(s) : s);

export function eventRow(
  [[eid, rid, time, provider, computer, message], data]: IndexTableRow,
  place?: PlacedRow,
): Row {
  return {
    event_id: numeric(eid),
    record_id: numeric(rid),
    timestamp: time,
    provider,
    computer,
    channel: place?.channel ?? null,
    file: place?.file ?? null,
    message,
    event_data: data,
  };
}

export const placedRow = (p: PlacedRow): Row => eventRow(p.row, p);

/** The event data as the table shows it: from a little before the match when it lies far in. */
function dataAround(data: Cell, text: string): string {
  const line = data === null || data === undefined ? '' : cellText(data).replace(/\s+/g, ' ');
  if (text === '') return line;
  const at = line.toLowerCase().indexOf(text.toLowerCase());
  return at < 0 || at + text.length <= SHOWN ? line : `…${line.slice(at - LEAD)}`;
}

/** The listing for `format`: the table's columns, or every column for the machine formats. */
export function eventSet(format: Format, text: string): Omit<RecordSet, 'rows'> & { shape: (r: Row) => Row } {
  const table = format === 'table';
  const keys = table ? TABLE_KEYS : MACHINE_KEYS;
  return {
    columns: keys.map((k) => (k === 'file' ? pathColumn(k, 'File') : column(k, LABELS[k]!))),
    empty: 'No matching events.',
    timeline: (r) => ({
      time: Date.parse(`${String(r.timestamp).replace(' ', 'T')}Z`),
      message: `${r.event_id} ${r.provider}: ${r.message}`,
      description: 'Event Recorded',
    }),
    shape: table ? (r) => ({ ...r, event_data: dataAround(r.event_data ?? null, text) }) : (r) => r,
  };
}

export interface PageFacts {
  readonly page: number;
  readonly show: number;
  readonly shown: number;
  /** Events matching, when known (files: counted up to `cap`); jobs: undefined. */
  readonly total?: number;
  readonly cap: number;
  /** Jobs: whether the next page holds events. */
  readonly more?: boolean;
}

const count = (n: number) => n.toLocaleString('en');

/** `Events 11–20 of 57; next page: --page 3`, or undefined when there is nothing to say. */
export function pageHint(f: PageFacts): string | undefined {
  const from = (f.page - 1) * f.show + 1;
  const to = from + f.shown - 1;
  const of = f.total === undefined ? '' : ` of ${count(f.total)}${f.total >= f.cap ? '+' : ''}`;
  if (f.shown === 0)
    return f.total !== undefined && f.total > 0
      ? `No events on page ${f.page}: ${count(f.total)} match (${Math.ceil(f.total / f.show)} pages of ${f.show})`
      : undefined;
  const more = f.total === undefined ? f.more === true : to < f.total;
  const next = !more
    ? ''
    : f.page < 10
      ? `; next page: --page ${f.page + 1}`
      : '; pages end at 10: --all lists every match (files), or narrow with --from/--to/--filter';
  return `Events ${count(from)}–${count(to)}${of}${next}`;
}
