/**
 * The event index of one parse job: a self-contained SQLite database. Events are staged as
 * they arrive (batched transactions) and copied once, at the end, into `events` in time order
 * (timestamp, record id, arrival), so the row number `n` is the result order: every query
 * walks `n` upwards and stops after the requested page. `events_grams` holds, per block of
 * rows (see TEXT_BLOCK_ROWS), each trigram of the rows' folded searchable text (`body`) within
 * one value with the rows that hold it (grams.ts), so a row holding all of a needle's trigrams is a candidate
 * that the row confirms exactly (the folded text is made again from the row's columns:
 * text-match.ts).
 *
 * Format 3 keeps those postings itself; format 2 kept the same rows in contentless FTS5 trigram
 * tables (`events_text_<k>`, `detail=none`), 3–4 times slower to build. Format 2 stores each
 * value once (row.ts): about 1.4 KB per event instead of 3.3 KB. Format 1 also kept every event
 * as keyed JSON (`event`) and its folded text (`bodies`). Indexes of formats 1 and 2 are still
 * read (event-index.ts, rebuild.ts).
 */
import type { SqliteDatabase } from '../../native/sqlite.js';

/** Bumped when the layout changes; the formats an index may have are in READABLE_FORMATS. */
export const INDEX_FORMAT = 3;
export const READABLE_FORMATS = [1, 2, 3] as const;
export type IndexFormat = (typeof READABLE_FORMATS)[number];

const STAGED_TEXTS = new Set([
  'event_id',
  'time',
  'provider',
  'computer',
  'message',
  'data',
  'channel',
  'user_sid',
  'extra',
]);

/** The staging tables: the builder's own database, a `<path>.stage` file. */
export const STAGE_SCHEMA = `
  CREATE TABLE staged_duplicates (
    seq INTEGER PRIMARY KEY, ts INTEGER, file INTEGER NOT NULL, event TEXT NOT NULL
  ) STRICT;
  -- Texts are ANY: rows made by decode workers bind them as UTF-8 bytes (rows/pack.ts), rows
  -- made here as strings; the copy into events and the block readers read both as text.
  CREATE TABLE staged (
    seq       INTEGER PRIMARY KEY,
    ts        INTEGER,
    file      INTEGER NOT NULL,
    event_id  ANY NOT NULL,
    record_id INTEGER NOT NULL,
    time      ANY NOT NULL,
    provider  ANY NOT NULL,
    computer  ANY NOT NULL,
    message   ANY NOT NULL,
    data      ANY NOT NULL,
    sigma     TEXT,
    channel   ANY NOT NULL,
    user_sid  ANY,
    extra     ANY NOT NULL,
    chars     INTEGER,
    body      ANY NOT NULL
  ) STRICT;
  -- Kept up as events arrive, so the copy into result order reads it instead of sorting.
  CREATE INDEX staged_order ON staged(ts, record_id);
`;

/** Where the index is built (the staging database is attached beside it, as `stage`). */
export type IndexSchemaName = 'main';
export type StageSchemaName = 'stage';

export const indexSchema = (ix: IndexSchemaName) => `
  CREATE TABLE ${ix}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  -- Source files: their names (the Overview's) and decode diagnostics, for the rebuild.
  CREATE TABLE ${ix}.files (no INTEGER PRIMARY KEY, name TEXT NOT NULL, diagnostics TEXT NOT NULL) STRICT;
  -- Matched Sigma rules, once each: the title (filters) and the rule as the analyzer takes it.
  CREATE TABLE ${ix}.rules (no INTEGER PRIMARY KEY, title TEXT NOT NULL, rule TEXT NOT NULL) STRICT;
  -- Correlation hits (no single record), for the rebuild.
  CREATE TABLE ${ix}.correlations (rule INTEGER NOT NULL, ts INTEGER NOT NULL) STRICT;
  -- YARA rules that matched a payload an event carried (run_yara_payloads), by file and record.
  CREATE TABLE ${ix}.yara (file INTEGER NOT NULL, record_id INTEGER NOT NULL, rule TEXT NOT NULL) STRICT;
  CREATE INDEX ${ix}.yara_record ON yara(file, record_id);
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
    channel   TEXT NOT NULL,
    user_sid  TEXT,
    extra     TEXT NOT NULL,        -- the rest of the flat event, positional (row.ts)
    chars     INTEGER               -- NULL: the row's values are ASCII; else flags (row.ts)
  ) STRICT;
  ${gramsSchema(ix)}`;

/** The columns of `staged` (and of a row from row.ts, after `seq`) that `events` keeps. */
const EVENT_COLUMNS =
  'seq, ts, file, event_id, record_id, time, provider, computer, message, data, sigma, channel, user_sid, extra, chars';
/** The same columns read from `staged`, texts as text (bytes there are UTF-8: see STAGE_SCHEMA). */
const STAGED_COLUMNS = EVENT_COLUMNS.split(', ')
  .map((c) => (STAGED_TEXTS.has(c) ? `CAST(${c} AS TEXT)` : c))
  .join(', ');

/**
 * Copies the staged rows (events in result order), one statement at a time. No statement
 * sorts: the order comes from `staged_order`, and the indexes exist before the rows go in
 * (`events_ts` is then appended to, `events_event_id` grows at one point per event id,
 * `events_seq` at one point per source file). `events_seq` gives the rebuild its arrival
 * order without a sort (indexes built before it lack it, and the rebuild then sorts).
 * Sorts would run in memory, as big as the job: temporary files hold plaintext, so index
 * connections keep temporary storage in memory (see native/sqlite.ts).
 */
export const copyStaged = (ix: IndexSchemaName, stage: StageSchemaName): readonly string[] => [
  `CREATE INDEX ${ix}.duplicates_ts ON duplicates(ts)`,
  `CREATE INDEX ${ix}.events_ts ON events(ts)`,
  `CREATE INDEX ${ix}.events_event_id ON events(event_id)`,
  `CREATE INDEX ${ix}.events_seq ON events(seq)`,
  `INSERT INTO ${ix}.events (${EVENT_COLUMNS})
  SELECT ${STAGED_COLUMNS} FROM ${stage}.staged INDEXED BY staged_order ORDER BY ts, record_id, seq`,
  `INSERT INTO ${ix}.duplicates SELECT * FROM ${stage}.staged_duplicates`,
];

/**
 * Rows per trigram block. A gram's rows are read from the start of its postings, so a time
 * window deep into one big index would cost time in proportion to its position (FTS5 took 5 ms
 * per trigram half-way through a million rows). Blocks of consecutive rows bound that walk; a
 * query visits the blocks of its window in order and stops when its page is full.
 */
export const TEXT_BLOCK_ROWS = 131_072;
/** Smallest block `blockRowsFor` makes: below it a thread's start costs more than it saves. */
export const MIN_TEXT_BLOCK_ROWS = 16_384;

/**
 * Blocks each of several block threads should get at least (while MIN_TEXT_BLOCK_ROWS allows).
 * The completing thread copies the events before it takes a block, about a block's time when
 * each thread has two: the other thread then built one block more and idled while the last one
 * was built. With four each (the 1 GB job: 8 blocks of 61,440 rows instead of 4 of 122,880),
 * its completion was shorter in 9 of 11 alternated pairs, 5.06 s against 5.52 s on average, and
 * the index 0.3 % smaller.
 */
export const MIN_BLOCKS_PER_THREAD = 4;

/**
 * Rows per block for `events` built by `threads` threads: blocks of at most TEXT_BLOCK_ROWS, as
 * many as a multiple of the threads and (with several) at least MIN_BLOCKS_PER_THREAD each while
 * blocks keep MIN_TEXT_BLOCK_ROWS, so none idles long while the last block is built. One 238 MB
 * file (122,725 events) was a single block: 4.5 s on one core while the other idled.
 */
export function blockRowsFor(events: number, threads: number): number {
  const least = Math.max(1, Math.ceil(events / TEXT_BLOCK_ROWS));
  const perThread = Math.ceil(least / threads);
  const wanted = (threads > 1 ? Math.max(perThread, MIN_BLOCKS_PER_THREAD) : perThread) * threads;
  // As many as blocks of MIN_TEXT_BLOCK_ROWS allow, still a multiple of the threads when it can be.
  const fit = Math.max(1, Math.floor(events / MIN_TEXT_BLOCK_ROWS));
  const most = fit >= threads ? fit - (fit % threads) : fit;
  const blocks = Math.max(least, Math.min(wanted, most));
  const rows = Math.ceil(Math.ceil(events / blocks) / 4096) * 4096;
  return Math.min(TEXT_BLOCK_ROWS, Math.max(MIN_TEXT_BLOCK_ROWS, rows));
}

/** The FTS5 trigram index of block `k` in formats 1 and 2 (an integer from this module, never from a request). */
export const textBlock = (k: number) => `events_text_${Math.trunc(k)}`;

/** Where the trigram postings of every block live (format 3: grams.ts). */
export const gramsSchema = (ix: IndexSchemaName) => `
  CREATE TABLE IF NOT EXISTS ${ix}.events_grams (
    block    INTEGER NOT NULL,
    gram     TEXT NOT NULL,     -- three code points of folded text
    part     INTEGER NOT NULL,  -- a gram's rows are its parts' postings, in part order
    postings BLOB NOT NULL      -- ascending row numbers, varint deltas from the block's base
  ) STRICT;
  CREATE UNIQUE INDEX IF NOT EXISTS ${ix}.events_grams_key ON events_grams(block, gram, part);
`;

/**
 * The statements that build a block in `ix`: read the folded text of its rows, and store the
 * postings grams.ts makes of it. The rows are the staged ones in result order, `LIMIT ? OFFSET
 * ?` (bound), on a connection to the staging file: the order is the one `copyStaged` gives
 * `events` (the same index, walked the same way), so the k-th row read is row `from + k`
 * without reading `events`, and a builder can build its block in a file of its own while
 * `events` is being written.
 */
export function buildGramBlock(ix: IndexSchemaName): readonly [read: string, store: string] {
  return [
    'SELECT CAST(body AS TEXT) FROM staged INDEXED BY staged_order ORDER BY ts, record_id, seq LIMIT ? OFFSET ?',
    `INSERT INTO ${ix}.events_grams (block, gram, part, postings) VALUES (?, ?, ?, ?)`,
  ];
}

/**
 * Page size of the files a build writes (staging, index, trigram blocks), set before their
 * first table. SQLite's 4 KiB default costs a page header, a cell pointer and (for a private
 * job) an encrypted page with its tag every 4 KiB: with 16 KiB the 1 GB private job's index is
 * 1,346 bytes an event instead of 1,458, its copy 1.5 s instead of 2.1–2.3, the system CPU
 * 1.3 s lower. 32 and 64 KiB save a little more and cost 70 and 250 MiB of peak memory.
 * Readers take the size from the file, so indexes written with 4 KiB pages read alike.
 */
export const BUILD_PAGE_BYTES = 16 * 1024;

/** Sets a new database's page size (before its first table; later it would be ignored). */
export const setBuildPageSize = (db: SqliteDatabase, schema: 'main' | 'stage'): void => {
  db.pragma(`${schema}.page_size = ${BUILD_PAGE_BYTES}`);
};
