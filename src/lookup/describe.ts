/**
 * Windows messages for analysis: the event-id dataset's short description of an event
 * (with its `%1` placeholders), found by provider and id. Several rows (versions, OS builds)
 * may describe one event; the last one in the table (the newest version) is used.
 */
import { builtinLookupDataset, type LookupDataset } from './dataset.js';

export type EventDescriber = (eventId: number, provider: string) => string | undefined;

/** Describers made from the built-in dataset: any thread can make its own, equal one. */
const builtin = new WeakSet<EventDescriber>();

/** Whether `describe` is `eventDescriber()` over the built-in dataset. */
export const isBuiltinDescriber = (describe: unknown): boolean =>
  typeof describe === 'function' && builtin.has(describe as EventDescriber);

export function eventDescriber(dataset?: LookupDataset): EventDescriber {
  const describe = describerOf(dataset ?? builtinLookupDataset());
  if (dataset === undefined) builtin.add(describe);
  return describe;
}

function describerOf(dataset: LookupDataset): EventDescriber {
  const table = dataset.tables.event_id;
  const col = (name: string) => table.columns.indexOf(name);
  const [id, provider, description] = [col('Event ID'), col('Provider'), col('Description Short')];
  const byKey = new Map<string, string>();
  for (const row of table.rows) {
    const text = row[description] ?? '';
    if (text !== '') byKey.set(`${(row[provider] ?? '').toLowerCase()}\u0000${row[id] ?? ''}`, text);
  }
  return (eventId, p) => byKey.get(`${p.toLowerCase()}\u0000${eventId}`);
}
