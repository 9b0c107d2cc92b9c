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

/** Providers as written whose lower-case form a describer remembers (they are few). */
const MAX_PROVIDERS = 1024;

/**
 * Looks an event's description up in `entries`. Each row and digest asks, so a provider is
 * lower-cased once, not per event: by provider (lower case), then by event id.
 */
export function describerOf(
  entries: Descriptions,
): (eventId: number, provider: string) => string | undefined {
  const byProvider = new Map<string, Map<string, string>>();
  for (const [key, text] of entries) {
    const cut = key.lastIndexOf('\u0000');
    const provider = key.slice(0, cut);
    let ids = byProvider.get(provider);
    if (ids === undefined) {
      ids = new Map();
      byProvider.set(provider, ids);
    }
    ids.set(key.slice(cut + 1), text);
  }
  const asWritten = new Map<string, Map<string, string> | null>();
  // Events come in runs of one provider and id: the last answer is tried first.
  let lastId = Number.NaN;
  let lastProvider = '';
  let lastText: string | undefined;
  return (eventId, provider) => {
    if (eventId === lastId && provider === lastProvider) return lastText;
    let ids = asWritten.get(provider);
    if (ids === undefined) {
      ids = byProvider.get(provider.toLowerCase()) ?? null; // null: a provider with none
      if (asWritten.size >= MAX_PROVIDERS) asWritten.clear();
      asWritten.set(provider, ids);
    }
    lastId = eventId;
    lastProvider = provider;
    lastText = ids?.get(String(eventId));
    return lastText;
  };
}
