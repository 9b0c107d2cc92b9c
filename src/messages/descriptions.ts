/**
 * Windows message texts (with their %n placeholders) by provider and event id, as plain entries:
 * the lookup module makes them from its event-id dataset, and a decode worker that makes index
 * rows receives them when it starts, so it needs no lookup code of its own.
 */

/** [key, description] pairs; for a key given twice, the later entry wins. */
export type Descriptions = readonly (readonly [key: string, text: string])[];

/** The key of an event's description: its provider (case-insensitive) and id. */
export const descriptionKey = (eventId: number | string, provider: string): string =>
  `${provider.toLowerCase()}\u0000${eventId}`;

/** Looks an event's description up in `entries`. */
export function describerOf(
  entries: Descriptions,
): (eventId: number, provider: string) => string | undefined {
  const byKey = new Map(entries);
  return (eventId, provider) => byKey.get(descriptionKey(eventId, provider));
}
