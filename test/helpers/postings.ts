/** A gram's rows all at once, read with the search's own cursor (src/search/postings.ts). */
import { PostingsCursor } from '../../src/search/postings.js';

export function decodePostings(parts: readonly Uint8Array[], base: number): number[] {
  const rows: number[] = [];
  for (const c = new PostingsCursor(parts, base); c.value !== Number.POSITIVE_INFINITY; c.next())
    rows.push(c.value);
  return rows;
}

/**
 * The trigrams a row's folded text is indexed under, read the plain way: every three
 * consecutive code points, except those holding the separator between values (U+001F), which no
 * search may hold.
 */
export function plainTrigrams(text: string): Set<string> {
  const points = Array.from(text);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) {
    const g = points.slice(i, i + 3).join('');
    if (!g.includes('\u001f')) grams.add(g);
  }
  return grams;
}
