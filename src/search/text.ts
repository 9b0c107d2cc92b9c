/**
 * What `search` matches: an event's searchable values, case-folded and joined with a separator
 * no query may contain, so a match never spans two values. The trigram index narrows the
 * candidates; the exact test (`instr` on the folded text) decides.
 */
import type { EvtxEvent } from '../evtx/index.js';
import type { IndexTableRow } from '../insights/index.js';

/** U+001F (unit separator) between values; rejected in queries. */
export const SEPARATOR = '\u001f';

/** Case folding for search and filters (the same as the lookup endpoint's). */
export const fold = (s: string): string => s.toLowerCase();

/**
 * The searchable values of an event: the six cells of its row (event id, record id, timestamp,
 * provider, computer, message), every event-data value, its channel and user SID, and the
 * titles of the Sigma rules it matched.
 */
export function searchableText(row: IndexTableRow, e: EvtxEvent, sigmaTitles: readonly string[]): string {
  return joinSearchable(row[0], Object.values(row[1]), e.channel, e.userSid, sigmaTitles);
}

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

/** Trigrams of one needle a query looks up at most (the exact test does the rest). */
const MAX_TRIGRAMS_PER_NEEDLE = 12;

function trigrams(needle: string): string[] {
  const chars = Array.from(needle); // the trigram tokenizer counts code points, not UTF-16 units
  const all: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) all.push(chars.slice(i, i + 3).join(''));
  const unique = [...new Set(all)];
  if (unique.length <= MAX_TRIGRAMS_PER_NEEDLE) return unique;
  // Evenly spread, always keeping the first and the last.
  const step = (unique.length - 1) / (MAX_TRIGRAMS_PER_NEEDLE - 1);
  return Array.from({ length: MAX_TRIGRAMS_PER_NEEDLE }, (_, i) => unique[Math.round(i * step)]!);
}

/**
 * The trigrams every event containing all `needles` (folded text) holds, at most
 * MAX_TRIGRAMS_PER_NEEDLE of each needle; null when no needle has three characters (scan
 * instead). Lone surrogates count as U+FFFD, as in the stored text (SQLite keeps UTF-8).
 */
export function needleTrigrams(needles: readonly string[]): string[] | null {
  const grams = new Set<string>();
  for (const n of needles) for (const t of trigrams(n.toWellFormed())) grams.add(t);
  return grams.size === 0 ? null : [...grams];
}

/**
 * Trigrams as an FTS5 MATCH expression (indexes of format 1 and 2): each quoted, ANDed. It is a
 * bound parameter, never SQL text; quoting keeps FTS5 syntax out of user text.
 */
export const ftsMatch = (grams: readonly string[]): string =>
  grams.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
