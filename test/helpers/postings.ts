/** A gram's rows all at once, read with the search's own cursor (src/search/postings.ts). */
import { PostingsCursor } from '../../src/search/postings.js';

export function decodePostings(parts: readonly Uint8Array[], base: number): number[] {
  const rows: number[] = [];
  for (const c = new PostingsCursor(parts, base); c.value !== Number.POSITIVE_INFINITY; c.next())
    rows.push(c.value);
  return rows;
}
