/**
 * One event as the index stores it (format 2), and back. Pure: no SQLite here, so rows can be
 * made wherever the events are (a worker thread) and only the row sent on.
 *
 * Each value is stored once. The table's columns (ts, event id, record id, provider, computer,
 * the event data as the 7th column's JSON, channel, user SID) are the event's own fields; `extra`
 * holds the rest of the flat event, positional (no key names), with TimeCreated's text reduced
 * to its sub-millisecond digits when the rest equals the timestamp. What the columns cannot give
 * back exactly (multi-valued or `Data[n]`-named data, an event id or provider that the row
 * shows differently) is kept in `extra` as it is, so `restoreEvent` (search/restore.ts) always
 * returns the event the job saw. `body` (the folded searchable text) feeds the trigram index only; it is not kept.
 */

import type { EvtxEvent } from '../evtx/index.js';
import { type DescribeEvent, indexTableRow } from '../messages/index.js';
import { foldSearchable, ownSearchable } from './text.js';

/** The columns of a staged event after its arrival number, in `staged` order (schema.ts). */
export type IndexRow = [
  ts: number | null,
  file: number,
  eventId: string,
  recordId: number,
  time: string,
  provider: string,
  computer: string,
  message: string,
  data: string,
  sigma: string | null,
  channel: string,
  userSid: string | null,
  extra: string,
  chars: number | null,
  body: string,
];

/** Fields the columns do not give back, kept in `extra[EXTRA_EXACT]` when present. */
export interface Exact {
  eventId?: number;
  provider?: string;
  computer?: string;
  channel?: string;
  userSid?: string;
  data?: EvtxEvent['data'];
  unnamedData?: string[];
}
export const EXTRA_EXACT = 11;

export const UNNAMED = /^Data\[(\d+)\]$/;

/**
 * The staged row of one new event of file number `file`, matched by rules `ruleNos` (distinct,
 * with their `titles` in the same order).
 */
export function indexRow(
  e: EvtxEvent,
  file: number,
  ruleNos: readonly number[],
  titles: readonly string[],
  describe?: DescribeEvent,
): IndexRow {
  const [cells, data] = indexTableRow(e, describe);
  const own = ownSearchable(cells, Object.values(data), e.channel, e.userSid);
  const chars = charsOf(own);
  const ts = Number.isFinite(e.timestamp) ? e.timestamp : null;
  const exact: Exact = {};
  if (Number(cells[0]) !== e.eventId) exact.eventId = e.eventId;
  if (cells[3] !== e.provider) exact.provider = e.provider;
  if (cells[4] !== e.computer) exact.computer = e.computer;
  // A text column holds UTF-8: a lone surrogate would come back as U+FFFD (JSON keeps it).
  if (chars !== null) {
    if (!e.provider.isWellFormed()) exact.provider = e.provider;
    if (!e.computer.isWellFormed()) exact.computer = e.computer;
    if (!e.channel.isWellFormed()) exact.channel = e.channel;
    if (e.userSid !== null && !e.userSid.isWellFormed()) exact.userSid = e.userSid;
  }
  if (!dataRestorable(e)) {
    exact.data = e.data;
    exact.unnamedData = e.unnamedData;
  }
  const extra: unknown[] = [
    timeText(ts, e.timestampText),
    e.qualifiers,
    e.version,
    e.level,
    e.task,
    e.opcode,
    e.keywords,
    e.providerGuid,
    e.processId,
    e.threadId,
    e.userDataName,
  ];
  if (hasFields(exact)) extra.push(exact);
  else while (extra.length > 0 && extra[extra.length - 1] === null) extra.pop();
  return [
    ts,
    file,
    cells[0],
    e.recordId,
    cells[2],
    cells[3],
    cells[4],
    cells[5],
    JSON.stringify(data),
    ruleNos.length === 0 ? null : JSON.stringify(ruleNos),
    e.channel,
    e.userSid,
    JSON.stringify(extra),
    chars,
    foldSearchable(own, titles),
  ];
}

/** `chars`: the row's searchable values hold a character beyond ASCII (text-match.ts). */
export const NON_ASCII = 1;
/** `chars`: …and one that JavaScript folds to an ASCII letter (`İ`, the Kelvin sign). */
export const FOLDS_TO_ASCII = 2;

/**
 * The `chars` flags of a row's own values, joined (`ownSearchable`; its Sigma titles are not in
 * the row); null: all ASCII.
 */
function charsOf(own: string): number | null {
  // Only ASCII has as many UTF-8 bytes as code units: counted natively, 4x faster than a
  // pattern looking for a character past it (0.17 against 0.67 µs for 900 characters).
  if (Buffer.byteLength(own, 'utf8') === own.length) return null;
  return /[\u0130\u212a]/.test(own) ? NON_ASCII | FOLDS_TO_ASCII : NON_ASCII;
}

/** Whether `o` has an own field (without listing them all, as each event's row asks). */
function hasFields(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/**
 * Whether the 7th column's JSON gives back `data` and `unnamedData`: single values only, and
 * no named field that looks like an unnamed one (`Data[0]`) or that an object cannot hold.
 */
function dataRestorable(e: EvtxEvent): boolean {
  for (const k in e.data) {
    // Most names do not start with 'D': the pattern is tried on the few that do.
    if (typeof e.data[k] !== 'string' || k === '__proto__' || (k.charCodeAt(0) === 0x44 && UNNAMED.test(k)))
      return false;
  }
  return true;
}

let lastMinute = Number.NaN;
let lastMinuteText = '';

/** Whether `text` holds `n` written in `width` decimal digits at `at`. */
function digitsAre(text: string, at: number, width: number, n: number): boolean {
  for (let i = at + width - 1; i >= at; i--) {
    if (text.charCodeAt(i) !== 48 + (n % 10)) return false;
    n = Math.floor(n / 10);
  }
  return n === 0;
}

/**
 * TimeCreated's text: its four digits past the millisecond (a number) when the rest is the
 * timestamp's own ISO text (`…T00:16:26.874` + `8450` + `Z`), else the text itself.
 */
function timeText(ts: number | null, text: string): string | number {
  if (ts === null || text.length !== 28 || text[27] !== 'Z') return text;
  const minute = Math.floor(ts / 60_000) * 60_000;
  if (minute !== lastMinute) {
    const date = new Date(minute);
    const iso = Number.isNaN(date.getTime()) ? '' : date.toISOString();
    // Only years 0–9999 have the 4-digit layout checked below (others: `+010000-…`).
    lastMinuteText = iso[4] === '-' ? iso.slice(0, 16) : '';
    lastMinute = minute;
  }
  // Events come in runs of one minute: its ISO text is made once, the seconds checked here.
  if (lastMinuteText !== '' && Number.isInteger(ts)) {
    const rest = ts - minute;
    const sec = Math.floor(rest / 1000);
    const ms = rest - sec * 1000;
    if (
      !text.startsWith(lastMinuteText) ||
      text[16] !== ':' ||
      !digitsAre(text, 17, 2, sec) ||
      text[19] !== '.' ||
      !digitsAre(text, 20, 3, ms)
    )
      return text;
    const digits = text.slice(23, 27);
    return /^\d{4}$/.test(digits) ? Number(digits) : text;
  }
  const date = new Date(ts);
  const digits = text.slice(23, 27);
  if (Number.isNaN(date.getTime()) || !/^\d{4}$/.test(digits)) return text;
  return date.toISOString().slice(0, 23) === text.slice(0, 23) ? Number(digits) : text;
}
