/**
 * A query's trigrams (its text and the values of its positive filters, folded): what the
 * index's postings (format 3) or FTS5 tables (formats 1 and 2) are asked for. Apart from
 * text.ts, which the threads that make rows load, so that they carry only what they run.
 */

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
