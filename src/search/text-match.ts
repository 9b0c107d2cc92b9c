/**
 * The exact text test of a format-2 index, which keeps no folded copy of each event's text:
 * `tae_text` makes the text again from the row's columns (text.ts `joinSearchable`, the very
 * function the build fed the trigram index with) and looks for the needle in it. That costs
 * about 2 µs a row in JavaScript, so a plain-ASCII needle first meets a native prefilter that
 * every matching row passes (a needed condition, never a sufficient one):
 * - SQLite's `LIKE` ignores the case of A–Z only, and only two other characters fold to ASCII
 *   in JavaScript (`İ` → `i̇`, the Kelvin sign → `k`): a row holding one (flagged in `chars`
 *   when built) passes when the needle holds `i` or `k`;
 * - a needle beyond ASCII can only be in a row with a character beyond ASCII (`chars`);
 * - in the event data's JSON each character of a value is written alone (escaped or not), so
 *   the needle is looked for there as JSON writes it;
 * - Sigma titles are not in the row: when a title holds the needle, rows with matches pass.
 */
import type { SqliteDatabase } from '../../native/sqlite.js';
import { FOLDS_TO_ASCII, joinSearchable } from '../rows/index.js';

/** The columns `tae_text` reads, in its argument order. */
const TEXT_COLUMNS =
  'e.event_id, e.record_id, e.time, e.provider, e.computer, e.message, e.data, e.channel, e.user_sid, e.sigma';

/** The columns the prefilter looks through (the Sigma titles are not in the row). */
const PREFILTERED = [
  'e.data',
  'e.message',
  'e.provider',
  'e.computer',
  'e.channel',
  'e.user_sid',
  'e.time',
  'e.event_id',
  'e.record_id',
];

/** An ASCII needle (not U+0000, rejected in queries): the prefilter can decide on it. */
const ASCII = /^[\x01-\x7f]+$/;

/** `LIKE '%…%'` with the needle's own `%`, `_` and `\` escaped (ESCAPE '\'). */
const likePattern = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;

/**
 * The SQL that holds for a row of `events e` whose folded text contains `needle` (folded
 * already); its parameters are appended to `params`. `titleHit`: some matched rule's title
 * contains the needle. The prefilter is `LIKE`, column by column: ASCII-case-insensitive
 * without a folded copy, and its scan for a literal is faster than `instr`.
 */
export function textCondition(needle: string, titleHit: boolean, params: unknown[]): string {
  const exact = `tae_text(?, ${TEXT_COLUMNS})`;
  const titles = titleHit ? ' OR e.sigma IS NOT NULL' : '';
  if (!ASCII.test(needle)) {
    // Folded ASCII is ASCII: only a row with another character may hold this needle.
    params.push(needle);
    return `(e.chars IS NOT NULL${titles}) AND ${exact}`;
  }
  const raw = likePattern(needle);
  // In the data's JSON a value is written escaped, one character at a time.
  const json = likePattern(JSON.stringify(needle).slice(1, -1));
  const tests: string[] = [];
  for (const column of PREFILTERED) {
    tests.push(`${column} LIKE ? ESCAPE '\\'`);
    params.push(column === 'e.data' ? json : raw);
  }
  if (/[ik]/.test(needle)) tests.push(`e.chars & ${FOLDS_TO_ASCII}`);
  params.push(needle);
  return `(${tests.join(' OR ')}${titles}) AND ${exact}`;
}

/**
 * The folded text of a stored row (its columns, as `tae_text` gets them), as the build fed the
 * trigram index: the build's text went through SQLite (UTF-8), so a lone surrogate is U+FFFD.
 */
export function storedText(
  titles: ReadonlyMap<number, string>,
  ...[eventId, recordId, time, provider, computer, message, data, channel, userSid, sigma]: unknown[]
): string {
  const ruleTitles: string[] = [];
  if (typeof sigma === 'string') {
    for (const no of JSON.parse(sigma) as number[]) {
      const t = titles.get(no);
      if (t !== undefined) ruleTitles.push(t);
    }
  }
  const cells = [eventId, String(recordId), time, provider, computer, message] as string[];
  const values = Object.values(JSON.parse(data as string) as Record<string, string>);
  return joinSearchable(
    cells,
    values,
    channel as string,
    userSid as string | null,
    ruleTitles,
  ).toWellFormed();
}

/** Registers `tae_text` on an index connection; `titles`: each matched rule's title by number. */
export function registerTextTest(db: SqliteDatabase, titles: ReadonlyMap<number, string>): void {
  db.function(
    'tae_text',
    { deterministic: true },
    (needle, eventId, recordId, time, provider, computer, message, data, channel, userSid, sigma) =>
      storedText(
        titles,
        eventId,
        recordId,
        time,
        provider,
        computer,
        message,
        data,
        channel,
        userSid,
        sigma,
      ).includes(needle as string)
        ? 1
        : 0,
  );
}
