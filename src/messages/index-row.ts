/** One event as an IndexTable row (the search results' `Event Table`), with its message. */
import type { EvtxEvent } from '../evtx/index.js';
import type { IndexTableRow } from '../insights/index.js';
import { type DescribeEvent, renderMessage } from './message.js';
import { formatTime } from './text.js';

/**
 * [event id, record id, `YYYY-MM-DD HH:MM:SS`, provider, computer, message] and the event data as
 * strings (multi-valued fields joined with ', ', unnamed data as `Data[0]`, `Data[1]`, …).
 */
export function indexTableRow(e: EvtxEvent, describe?: DescribeEvent): IndexTableRow {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.data)) data[k] = typeof v === 'string' ? v : v.join(', ');
  e.unnamedData.forEach((v, i) => {
    data[`Data[${i}]`] = v;
  });
  return [
    [
      String(e.eventId),
      String(e.recordId),
      formatTime(e.timestamp),
      e.provider,
      e.computer,
      renderMessage(e, describe),
    ],
    data,
  ];
}
