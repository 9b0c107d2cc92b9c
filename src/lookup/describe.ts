/**
 * Windows messages for analysis: the event-id dataset's short description of an event
 * (with its `%1` placeholders), found by provider and id. Several rows (versions, OS builds)
 * may describe one event; the last one in the table (the newest version) is used.
 */
import { type Descriptions, describerOf, descriptionKey } from '../messages/index.js';
import { builtinLookupDataset, type LookupDataset } from './dataset.js';

export type EventDescriber = (eventId: number, provider: string) => string | undefined;

/** Describers made from the built-in dataset: any thread can make its own, equal one. */
const builtin = new WeakSet<EventDescriber>();

/** Whether `describe` is `eventDescriber()` over the built-in dataset. */
export const isBuiltinDescriber = (describe: unknown): boolean =>
  typeof describe === 'function' && builtin.has(describe as EventDescriber);

export function eventDescriber(dataset?: LookupDataset): EventDescriber {
  const describe = describerOf(eventDescriptions(dataset));
  if (dataset === undefined) builtin.add(describe);
  return describe;
}

/** The event-id dataset's descriptions as entries (see the messages module), e.g. for a worker. */
export function eventDescriptions(dataset?: LookupDataset): Descriptions {
  const table = (dataset ?? builtinLookupDataset()).tables.event_id;
  const col = (name: string) => table.columns.indexOf(name);
  const [id, provider, description] = [col('Event ID'), col('Provider'), col('Description Short')];
  const entries: [string, string][] = [];
  for (const row of table.rows) {
    const text = row[description] ?? '';
    if (text !== '') entries.push([descriptionKey(row[id] ?? '', row[provider] ?? ''), text]);
  }
  return entries;
}
