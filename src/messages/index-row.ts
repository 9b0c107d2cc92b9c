/** One event as an IndexTable row (the search results' `Event Table`), with its message. */
import type { EvtxEvent } from '../evtx/index.js';
import type { IndexTableRow } from '../insights/index.js';
import { type DescribeEvent, renderMessage } from './message.js';
import { formatTime } from './text.js';

/**
 * [event id, record id, `YYYY-MM-DD HH:MM:SS`, provider, computer, message] and the event data as
 * strings (multi-valued fields joined with ', ', unnamed data as `Data[0]`, `Data[1]`, …). The
 * data is the event's own object when it already is that (single values, no unnamed data): the
 * row is read, never changed, and copying twenty fields into a new object cost more than the
 * rest of the row.
 */
export function indexTableRow(e: EvtxEvent, describe?: DescribeEvent): IndexTableRow {
  return [
    [
      String(e.eventId),
      String(e.recordId),
      formatTime(e.timestamp),
      e.provider,
      e.computer,
      renderMessage(e, describe),
    ],
    e.unnamedData.length === 0 && singleValues(e.data) ? (e.data as Record<string, string>) : dataCopy(e),
  ];
}

/** Whether every field is one string, and none is `__proto__` (a copy drops it, as before). */
function singleValues(data: EvtxEvent['data']): boolean {
  for (const k in data) if (typeof data[k] !== 'string' || k === '__proto__') return false;
  return true;
}

function dataCopy(e: EvtxEvent): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.data)) data[k] = typeof v === 'string' ? v : v.join(', ');
  e.unnamedData.forEach((v, i) => {
    data[`Data[${i}]`] = v;
  });
  return data;
}
