/**
 * What `search` matches: an event's searchable values, case-folded and joined with a separator
 * no query may contain, so a match never spans two values. The trigram index narrows the
 * candidates; the exact test (`instr` on the folded text) decides.
 */

/** U+001F (unit separator) between values; rejected in queries. */
export const SEPARATOR = '\u001f';

/** Case folding for search and filters (the same as the lookup endpoint's). */
export const fold = (s: string): string => s.toLowerCase();

/** An event's own searchable values (its Sigma titles aside), joined but not folded. */
export function ownSearchable(
  cells: readonly string[],
  dataValues: readonly string[],
  channel: string,
  userSid: string | null,
): string {
  const parts: string[] = [...cells, ...dataValues, channel];
  if (userSid !== null) parts.push(userSid);
  return parts.join(SEPARATOR);
}

/**
 * The searchable text from the event's own values (`ownSearchable`) and its rules' titles, as
 * the index stores it. Folding the joined text folds each value alone: the one context-dependent
 * lower case (a final sigma) ends at the separator, which is neither cased nor case-ignorable.
 */
export const foldSearchable = (own: string, sigmaTitles: readonly string[]): string =>
  fold(sigmaTitles.length === 0 ? own : own + SEPARATOR + sigmaTitles.join(SEPARATOR));

/**
 * The same text from its parts, as the index stores them: what a build feeds the trigram
 * index and what a search confirms a candidate against (event-index.ts), so both agree.
 */
export const joinSearchable = (
  cells: readonly string[],
  dataValues: readonly string[],
  channel: string,
  userSid: string | null,
  sigmaTitles: readonly string[],
): string => foldSearchable(ownSearchable(cells, dataValues, channel, userSid), sigmaTitles);
