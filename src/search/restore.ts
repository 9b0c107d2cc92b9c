/**
 * A stored row back to the flat event it was made from (the other half of rows/row.ts, which
 * decode workers load without this): the search results, the rebuild and staged duplicates.
 */
import type { EvtxEvent } from '../evtx/index.js';
import { EXTRA_EXACT, type Exact, UNNAMED } from '../rows/index.js';

/** What `restoreEvent` reads: the stored columns of one row. */
export interface StoredEvent {
  readonly ts: number | null;
  readonly eventId: string;
  readonly recordId: number;
  readonly provider: string;
  readonly computer: string;
  readonly data: string;
  readonly channel: string;
  readonly userSid: string | null;
  readonly extra: string;
}

/** The flat event a row was made from. */
export function restoreEvent(s: StoredEvent): EvtxEvent {
  const extra = JSON.parse(s.extra) as unknown[];
  const at = (i: number) => (extra[i] ?? null) as never;
  const exact = (extra[EXTRA_EXACT] ?? {}) as Exact;
  const timestamp = s.ts ?? Number.NaN;
  let data: EvtxEvent['data'];
  let unnamedData: string[];
  if (exact.data !== undefined && exact.unnamedData !== undefined) {
    data = exact.data;
    unnamedData = exact.unnamedData;
  } else [data, unnamedData] = splitData(JSON.parse(s.data) as Record<string, string>);
  return {
    recordId: s.recordId,
    timestamp,
    timestampText: restoreTimeText(timestamp, extra[0]),
    eventId: exact.eventId ?? Number(s.eventId),
    qualifiers: at(1),
    version: at(2),
    level: at(3),
    task: at(4),
    opcode: at(5),
    keywords: at(6),
    provider: exact.provider ?? s.provider,
    providerGuid: at(7),
    channel: exact.channel ?? s.channel,
    computer: exact.computer ?? s.computer,
    userSid: exact.userSid ?? s.userSid,
    processId: at(8),
    threadId: at(9),
    data,
    unnamedData,
    userDataName: at(10),
  };
}

function splitData(all: Record<string, string>): [Record<string, string>, string[]] {
  const data: Record<string, string> = {};
  const unnamed: string[] = [];
  for (const [k, v] of Object.entries(all)) {
    if (UNNAMED.test(k)) unnamed.push(v);
    else data[k] = v;
  }
  return [data, unnamed];
}

function restoreTimeText(timestamp: number, stored: unknown): string {
  if (typeof stored !== 'number') return String(stored ?? '');
  return `${new Date(timestamp).toISOString().slice(0, 23)}${String(stored).padStart(4, '0')}Z`;
}
