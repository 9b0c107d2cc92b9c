/**
 * The event index of one parse job: a self-contained SQLite database. Events are staged as
 * they arrive (batched transactions) and copied once, at the end, into `events` in time order
 * (timestamp, record id, arrival), so the row number `n` is the result order: every query
 * walks `n` upwards and stops after the requested page. `events_text_<k>` are contentless
 * FTS5 trigram indexes over each event's folded searchable text (`body`), one per block of
 * rows (see TEXT_BLOCK_ROWS); `detail=none` keeps them small (no positions: half the size of
 * `detail=full` and 30 % faster to build), so a match of all of a needle's trigrams is a
 * candidate that `body` confirms exactly.
 */

/** Bumped when the layout changes; an index of another version is not opened. */
export const INDEX_FORMAT = 1;

/** The staging tables: the builder's own database, a `<path>.stage` file. */
export const STAGE_SCHEMA = `
  CREATE TABLE staged_duplicates (
    seq INTEGER PRIMARY KEY, ts INTEGER, file INTEGER NOT NULL, event TEXT NOT NULL
  ) STRICT;
  CREATE TABLE staged (
    seq       INTEGER PRIMARY KEY,
    ts        INTEGER,
    file      INTEGER NOT NULL,
    event_id  TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    time      TEXT NOT NULL,
    provider  TEXT NOT NULL,
    computer  TEXT NOT NULL,
    message   TEXT NOT NULL,
    data      TEXT NOT NULL,
    sigma     TEXT,
    event     TEXT NOT NULL,
    body      TEXT NOT NULL
  ) STRICT;
  -- Kept up as events arrive, so the copy into result order reads it instead of sorting.
  CREATE INDEX staged_order ON staged(ts, record_id);
`;

/** Where the index is built (the staging database is attached beside it). */
export type IndexSchemaName = 'main';

export const indexSchema = (ix: IndexSchemaName) => `
  CREATE TABLE ${ix}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  -- Source files: their names (the Overview's) and decode diagnostics, for the rebuild.
  CREATE TABLE ${ix}.files (no INTEGER PRIMARY KEY, name TEXT NOT NULL, diagnostics TEXT NOT NULL) STRICT;
  -- Matched Sigma rules, once each: the title (filters) and the rule as the analyzer takes it.
  CREATE TABLE ${ix}.rules (no INTEGER PRIMARY KEY, title TEXT NOT NULL, rule TEXT NOT NULL) STRICT;
  -- Correlation hits (no single record), for the rebuild.
  CREATE TABLE ${ix}.correlations (rule INTEGER NOT NULL, ts INTEGER NOT NULL) STRICT;
  -- Records the job skipped as duplicates (not searchable), replayed so the rebuild counts them.
  CREATE TABLE ${ix}.duplicates (
    seq INTEGER PRIMARY KEY, ts INTEGER, file INTEGER NOT NULL, event TEXT NOT NULL
  ) STRICT;
  CREATE TABLE ${ix}.events (
    n         INTEGER PRIMARY KEY,  -- position in (timestamp, record id, arrival) order
    ts        INTEGER,              -- Unix ms; NULL when the event has no valid time
    seq       INTEGER NOT NULL,     -- arrival order (shared with duplicates), which the rebuild replays
    file      INTEGER NOT NULL,
    event_id  TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    time      TEXT NOT NULL,        -- YYYY-MM-DD HH:MM:SS (UTC), as the table shows it
    provider  TEXT NOT NULL,
    computer  TEXT NOT NULL,
    message   TEXT NOT NULL,
    data      TEXT NOT NULL,        -- JSON object: event-data name → text (the table's 7th column)
    sigma     TEXT,                 -- JSON array of rules.no; NULL when none matched
    event     TEXT NOT NULL         -- the flat event as JSON, to rebuild the analysis
  ) STRICT;
  -- Each event's folded searchable text (see text.ts), apart: a scan reads these alone.
  CREATE TABLE ${ix}.bodies (n INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;
`;

/**
 * Copies the staged rows (events in result order), one statement at a time. No statement
 * sorts: the order comes from `staged_order`, and the indexes exist before the rows go in
 * (`events_ts` is then appended to, `events_event_id` grows at one point per event id,
 * `events_seq` at one point per source file). `events_seq` gives the rebuild its arrival
 * order without a sort (indexes built before it lack it, and the rebuild then sorts).
 * Sorts would run in memory, as big as the job: temporary files hold plaintext, so index
 * connections keep temporary storage in memory (see native/sqlite.ts).
 */
export const copyStaged = (ix: IndexSchemaName, stage: 'stage'): readonly string[] => [
  `CREATE INDEX ${ix}.duplicates_ts ON duplicates(ts)`,
  `CREATE INDEX ${ix}.events_ts ON events(ts)`,
  `CREATE INDEX ${ix}.events_event_id ON events(event_id)`,
  `CREATE INDEX ${ix}.events_seq ON events(seq)`,
  `INSERT INTO ${ix}.events
    (seq, ts, file, event_id, record_id, time, provider, computer, message, data, sigma, event)
  SELECT seq, ts, file, event_id, record_id, time, provider, computer, message, data, sigma, event
  FROM ${stage}.staged INDEXED BY staged_order ORDER BY ts, record_id, seq`,
  `INSERT INTO ${ix}.bodies SELECT e.n, s.body FROM ${ix}.events e CROSS JOIN ${stage}.staged s ON s.seq = e.seq`,
  `INSERT INTO ${ix}.duplicates SELECT * FROM ${stage}.staged_duplicates`,
];

/**
 * Rows per trigram block. FTS5 finds the first rowid ≥ x by walking the doclist, so a time
 * window deep into one big index costs time in proportion to its position (5 ms per trigram
 * half-way through a million rows). Blocks of consecutive rows bound that walk; a query visits
 * the blocks of its window in order and stops when its page is full.
 */
export const TEXT_BLOCK_ROWS = 131_072;

/** The trigram index of block `k` (an integer from this module, never from a request). */
export const textBlock = (k: number) => `events_text_${Math.trunc(k)}`;

/** Builds block `k` over rows [from, to]: one bulk load, then one merge into one segment. */
export function buildTextBlock(ix: IndexSchemaName, k: number, from: number, to: number): string {
  const t = textBlock(k);
  return `
    CREATE VIRTUAL TABLE ${ix}.${t} USING fts5(body, content='', tokenize='trigram', detail='none', columnsize=0);
    INSERT INTO ${ix}.${t}(${t}, rank) VALUES ('automerge', 0);
    INSERT INTO ${ix}.${t}(rowid, body)
      SELECT n, body FROM ${ix}.bodies WHERE n BETWEEN ${Math.trunc(from)} AND ${Math.trunc(to)};
    INSERT INTO ${ix}.${t}(${t}) VALUES ('optimize');
  `;
}
