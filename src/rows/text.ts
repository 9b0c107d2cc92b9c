/**
 * What `search` matches: an event's searchable values, case-folded and joined with a separator
 * no query may contain, so a match never spans two values. The trigram index narrows the
 * candidates; the exact test (`instr` on the folded text) decides.
 */

/** U+001F (unit separator) between values; rejected in queries. */
export const SEPARATOR = '\u001f';

/** Case folding for search and filters (the same as the lookup endpoint's). */
export const fold = (s: string): string => s.toLowerCase();

/**
 * The same text from its parts, as the index stores them: what a build feeds the trigram
 * index and what a search confirms a candidate against (event-index.ts), so both agree.
 */
export function joinSearchable(
  cells: readonly string[],
  dataValues: readonly string[],
  channel: string,
  userSid: string | null,
  sigmaTitles: readonly string[],
): string {
  const parts: string[] = [...cells, ...dataValues, channel];
  if (userSid !== null) parts.push(userSid);
  for (const t of sigmaTitles) parts.push(t);
  return parts.map(fold).join(SEPARATOR);
}
