/**
 * A finished event index, open for queries. Every value a caller sends is a bound parameter:
 * column names come from a fixed table, a `details.<name>` path is itself a parameter, and
 * trigrams are looked up as values (format 3) or quoted into an FTS expression (needles.ts).
 * Filters are exact and case-insensitive (tested in JS, the lookup endpoint's semantics);
 * negative operators are the complement of their positive twin, so an absent field satisfies
 * `not_equals` and `does_not_contain` and nothing else.
 */
import type { SqliteDatabase, SqliteStatement } from '../../native/sqlite.js';
import { TaeError } from '../errors/index.js';
import type { IndexTableRow } from '../insights/index.js';
import type { FilterOperator } from '../lookup/index.js';
import { fold } from '../rows/index.js';
import { ftsMatch, needleTrigrams } from './needles.js';
import { commonRows, PostingsCursor } from './postings.js';
import { type IndexFormat, READABLE_FORMATS, textBlock } from './schema.js';
import { registerTextTest, textCondition } from './text-match.js';
import type { EventFilter, SearchField, SearchQuery } from './types.js';

/** Each operator as (positive test, negated?). */
const OPERATORS: Readonly<Record<FilterOperator, readonly [number, boolean]>> = {
  equals: [0, false],
  not_equals: [0, true],
  contains: [1, false],
  does_not_contain: [1, true],
  starts_with: [2, false],
  ends_with: [3, false],
};

const POSITIVE_TESTS: readonly ((cell: string, value: string) => boolean)[] = [
  (c, v) => c === v,
  (c, v) => c.includes(v),
  (c, v) => c.startsWith(v),
  (c, v) => c.endsWith(v),
];

/** The fixed fields' SQL, from this table only. */
const FIELD_SQL: Readonly<Record<Exclude<SearchField, 'sigma_matches' | 'yara_matches'>, string>> = {
  event_id: 'e.event_id',
  record_id: 'CAST(e.record_id AS TEXT)',
  timestamp: 'e.time',
  provider: 'e.provider',
  computer: 'e.computer',
};

const SIGMA_SQL =
  'EXISTS (SELECT 1 FROM json_each(e.sigma) j JOIN rules r ON r.no = j.value WHERE tae_test(?, r.title, ?))';

const YARA_SQL =
  'EXISTS (SELECT 1 FROM yara y WHERE y.file = e.file AND y.record_id = e.record_id AND tae_test(?, y.rule, ?))';

/** The table's columns, the row number, then where the event came from (file number, channel). */
const ROW_COLUMNS = 'e.event_id, e.record_id, e.time, e.provider, e.computer, e.message, e.data, e.n, e.file';

/** A row as selected: the table's columns, its row number, its file's number and its channel. */
type RawRow = [string, number, string, string, string, string, string, number, number, string | null];

/** An Event Table row with where its event came from (the CLI's structured output). */
export interface PlacedRow {
  readonly row: IndexTableRow;
  /** Null in a format-1 index, which keeps no channel column. */
  readonly channel: string | null;
  readonly file: string | null;
}

const tableRow = ([eid, rid, time, provider, computer, message, data]: RawRow): IndexTableRow => [
  [eid, String(rid), time, provider, computer, message],
  JSON.parse(data) as Record<string, string>,
];

export interface IndexMeta {
  readonly sigma: boolean;
  readonly events: number;
  /** Trigram blocks and the rows each holds (see schema.ts TEXT_BLOCK_ROWS). */
  readonly textBlocks: number;
  readonly blockRows: number;
}

/** Row numbers [lo, hi] of a time window, or null when no event falls in it. */
export type RowRange = readonly [number, number] | null;

const MAX_STATEMENTS = 512;
const handles = new WeakMap<SqliteDatabase, EventIndex>();

export class EventIndex {
  private readonly statements = new Map<string, SqliteStatement>();
  readonly meta: IndexMeta;
  /** The layout (schema.ts): format 1 keeps each event's folded text in `bodies`. */
  readonly format: IndexFormat;
  /** Each matched rule's title by its number (a few thousand at most: one per rule of the set). */
  private readonly titles: ReadonlyMap<number, string>;
  private readonly rowColumns: string;
  private fileNames: ReadonlyMap<number, string> | undefined;
  /** The index keeps payload YARA matches (indexes built before it did not). */
  private readonly hasYara: boolean;

  private constructor(readonly db: SqliteDatabase) {
    db.function('tae_test', { deterministic: true }, (test: unknown, cell: unknown, value: unknown) =>
      typeof cell === 'string' && POSITIVE_TESTS[test as number]!(fold(cell), value as string) ? 1 : 0,
    );
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const format = READABLE_FORMATS.find((f) => String(f) === meta.get('format'));
    if (format === undefined) {
      throw new TaeError(
        'INPUT_UNREADABLE',
        `event index format ${meta.get('format')} is not one of ${READABLE_FORMATS.join(', ')}`,
      );
    }
    this.format = format;
    this.rowColumns = `${ROW_COLUMNS}, ${format === 1 ? 'NULL' : 'e.channel'}`;
    this.titles = new Map(db.prepare('SELECT no, title FROM rules').raw().all() as [number, string][]);
    this.hasYara =
      db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'yara'`).get() !== undefined;
    if (format !== 1) registerTextTest(db, this.titles);
    const int = (key: string) => {
      const v = Number(meta.get(key));
      if (!Number.isSafeInteger(v) || v < 0)
        throw new TaeError('INPUT_UNREADABLE', `event index meta ${key}`);
      return v;
    };
    this.meta = {
      sigma: meta.get('sigma') === '1',
      events: int('events'),
      textBlocks: int('text_blocks'),
      blockRows: Math.max(1, int('text_block_rows')),
    };
  }

  /** The query side of an open index database (one per handle, reused). */
  static of(db: SqliteDatabase): EventIndex {
    let index = handles.get(db);
    if (index === undefined) {
      index = new EventIndex(db);
      handles.set(db, index);
    }
    return index;
  }

  /**
   * Rows of the window [start, end] (inclusive Unix ms). Without bounds, every row; with any
   * bound, events without a valid time are left out.
   */
  rowRange(start: number | null, end: number | null): RowRange {
    if (start === null && end === null) return [0, Number.MAX_SAFE_INTEGER];
    const lo = this.prepare('SELECT n FROM events WHERE ts >= ? ORDER BY ts, n LIMIT 1')
      .pluck()
      .get(start ?? Number.MIN_SAFE_INTEGER) as number | undefined;
    const hi = this.prepare('SELECT n FROM events WHERE ts <= ? ORDER BY ts DESC, n DESC LIMIT 1')
      .pluck()
      .get(end ?? Number.MAX_SAFE_INTEGER) as number | undefined;
    return lo === undefined || hi === undefined || lo > hi ? null : [lo, hi];
  }

  /** The requested page of matching events, in (timestamp, record id) order. */
  search(q: SearchQuery): IndexTableRow[] {
    return this.page(q).map(tableRow);
  }

  /** `search` with each row's channel and file name. */
  searchPlaced(q: SearchQuery): PlacedRow[] {
    return this.page(q).map(this.placed);
  }

  private page(q: SearchQuery): RawRow[] {
    const range = this.rowRange(q.start, q.end);
    if (range === null) return [];
    return this.rowsIn(q, range, (q.page - 1) * q.show, q.show);
  }

  /**
   * Every matching event in the order of `search`, `batch` rows at a time, whatever `page` and
   * `show` say (the endpoint's 10 × 100 cap is the endpoint's). Each batch starts after the
   * last row number of the one before, so a batch costs what a first page costs.
   */
  *searchAll(q: SearchQuery, batch = 1000): Generator<IndexTableRow[]> {
    for (const rows of this.all(q, batch)) yield rows.map(tableRow);
  }

  /** `searchAll` with each row's channel and file name. */
  *searchAllPlaced(q: SearchQuery, batch = 1000): Generator<PlacedRow[]> {
    for (const rows of this.all(q, batch)) yield rows.map(this.placed);
  }

  /** How many events match, counted up to `cap` (then `cap`). */
  count(q: SearchQuery, cap: number): number {
    if (q.text === '' && q.filters.length === 0) {
      // Rows are numbered in time order, so a window is a range of row numbers.
      const range = this.rowRange(q.start, q.end);
      if (range === null) return 0;
      return Math.min(cap, q.start === null && q.end === null ? this.meta.events : range[1] - range[0] + 1);
    }
    let n = 0;
    for (const rows of this.all(q, 1000)) {
      n += rows.length;
      if (n >= cap) return cap;
    }
    return n;
  }

  private *all(q: SearchQuery, batch: number): Generator<RawRow[]> {
    const range = this.rowRange(q.start, q.end);
    if (range === null) return;
    for (let lo = range[0]; ; ) {
      const rows = this.rowsIn(q, [lo, range[1]], 0, batch);
      if (rows.length > 0) yield rows;
      if (rows.length < batch) return;
      lo = rows[rows.length - 1]![7] + 1;
    }
  }

  private readonly placed = (r: RawRow): PlacedRow => {
    this.fileNames ??= new Map(
      this.db.prepare('SELECT no, name FROM files').raw().all() as [number, string][],
    );
    return { row: tableRow(r), channel: r[9], file: this.fileNames.get(r[8]) ?? null };
  };

  /** `limit` matching rows of rows [lo, hi] after skipping `offset`, in row order. */
  private rowsIn(q: SearchQuery, range: readonly [number, number], offset: number, limit: number): RawRow[] {
    const params: unknown[] = [];
    const conditions: string[] = [];
    // With text, a format-1 row's folded text comes from `bodies` (b), joined on the row number;
    // a format-2 row's is made again from its columns.
    const text = q.text !== '';
    const bodies = text && this.format === 1;
    if (bodies) {
      conditions.push('instr(b.body, ?) > 0');
      params.push(q.text);
    } else if (text) {
      const titleHit = [...this.titles.values()].some((t) => fold(t).includes(q.text));
      conditions.push(textCondition(q.text, titleHit, params));
    }
    for (const f of q.filters) conditions.push(condition(f, params, this.hasYara));
    const where = conditions.map((c) => ` AND ${c}`).join('');
    // A positive filter's value is in the event's text, so its trigrams narrow the candidates;
    // YARA rule names are not (they name a payload the event carried, kept apart).
    const inText = (f: EventFilter) =>
      !OPERATORS[f.operator][1] && !(f.target.kind === 'field' && f.target.field === 'yara_matches');
    const needles = [q.text, ...q.filters.filter(inText).map((f) => f.value)];
    const grams = needleTrigrams(needles);
    if (grams !== null) {
      const wanted = offset + limit;
      const rows =
        this.format === 3
          ? this.byGrams(grams, range, where, params, wanted)
          : this.byTrigrams(ftsMatch(grams), range, bodies, where, params, wanted);
      return rows.slice(offset);
    }
    const eventId = q.filters.find(
      (f) => f.target.kind === 'field' && f.target.field === 'event_id' && f.operator === 'equals',
    );
    // An exact event id walks its index (in row order); anything else scans rows in order:
    // text under three characters (format 1: the narrow `bodies` first), negative filters
    // only, or no condition at all.
    let from: string;
    let order = 'e.n';
    if (eventId !== undefined) {
      const join = bodies ? ' CROSS JOIN bodies b ON b.n = e.n' : '';
      from = `events e INDEXED BY events_event_id${join} WHERE e.event_id = ? AND e.n BETWEEN ? AND ?`;
    } else if (bodies) {
      from = 'bodies b CROSS JOIN events e ON e.n = b.n WHERE b.n BETWEEN ? AND ?';
      order = 'b.n';
    } else from = 'events e WHERE e.n BETWEEN ? AND ?';
    const head = eventId === undefined ? range : [eventId.value, ...range];
    const sql = `SELECT ${this.rowColumns} FROM ${from}${where} ORDER BY ${order} LIMIT ? OFFSET ?`;
    return this.prepare(sql)
      .raw()
      .all(...head, ...params, limit, offset) as RawRow[];
  }

  /** The trigram blocks rows [lo, hi] touch, in row order: [block, first row, last row] of each. */
  private *blocksOf(range: readonly [number, number]): Generator<[number, number, number]> {
    const { blockRows, textBlocks } = this.meta;
    const lo = Math.max(range[0], 1);
    const hi = Math.min(range[1], textBlocks * blockRows);
    for (let k = Math.floor((lo - 1) / blockRows); k < textBlocks; k++) {
      const from = Math.max(lo, k * blockRows + 1);
      const to = Math.min(hi, (k + 1) * blockRows);
      if (from > to) return;
      yield [k, from, to];
    }
  }

  /** The first `wanted` matches: block by block in row order, each candidate confirmed exactly. */
  private byTrigrams(
    match: string,
    range: readonly [number, number],
    bodies: boolean,
    where: string,
    params: unknown[],
    wanted: number,
  ) {
    const rows: RawRow[] = [];
    for (const [k, from, to] of this.blocksOf(range)) {
      if (rows.length >= wanted) break;
      const t = textBlock(k);
      const join = bodies ? ' CROSS JOIN bodies b ON b.n = t.rowid' : '';
      const sql = `SELECT ${this.rowColumns} FROM ${t} t${join} CROSS JOIN events e ON e.n = t.rowid WHERE ${t} MATCH ? AND t.rowid BETWEEN ? AND ?${where} ORDER BY t.rowid LIMIT ?`;
      const got = this.prepare(sql)
        .raw()
        .all(match, from, to, ...params, wanted - rows.length) as RawRow[];
      for (const r of got) rows.push(r);
    }
    return rows;
  }

  /**
   * The first `wanted` matches (format 3): block by block in row order, the rows holding every
   * gram (grams.ts), each confirmed exactly, in batches that grow as the page waits.
   */
  private byGrams(
    grams: readonly string[],
    range: readonly [number, number],
    where: string,
    params: unknown[],
    wanted: number,
  ) {
    const postings = this.prepare(
      'SELECT postings FROM events_grams WHERE block = ? AND gram = ? ORDER BY part',
    ).pluck();
    const confirm = this.prepare(
      `SELECT ${this.rowColumns} FROM events e WHERE e.n IN (SELECT value FROM json_each(?))${where} ORDER BY e.n LIMIT ?`,
    ).raw();
    const rows: RawRow[] = [];
    blocks: for (const [k, from, to] of this.blocksOf(range)) {
      if (rows.length >= wanted) break;
      const cursors: PostingsCursor[] = [];
      for (const g of grams) {
        const parts = postings.all(k, g) as Uint8Array[];
        if (parts.length === 0) continue blocks;
        cursors.push(new PostingsCursor(parts, k * this.meta.blockRows));
      }
      cursors.sort((x, y) => x.bytes - y.bytes);
      cursors[0]!.seek(from);
      for (let batch = CONFIRM_FIRST; rows.length < wanted; batch = Math.min(batch * 4, CONFIRM_MOST)) {
        const ids = commonRows(cursors, to, batch);
        if (ids.length === 0) break;
        const got = confirm.all(JSON.stringify(ids), ...params, wanted - rows.length) as RawRow[];
        for (const r of got) rows.push(r);
      }
    }
    return rows;
  }

  /** A cached prepared statement (the SQL shapes are few: one per filter combination). */
  prepare(sql: string): SqliteStatement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

/** Candidates confirmed by the first statement of a block, and at most by one. */
const CONFIRM_FIRST = 128;
const CONFIRM_MOST = 8192;

function condition(f: EventFilter, params: unknown[], hasYara: boolean): string {
  const [test, negated] = OPERATORS[f.operator];
  let sql: string;
  const t = f.target;
  if (t.kind === 'details') {
    sql = 'tae_test(?, json_extract(e.data, ?), ?)';
    params.push(test, `$."${t.name}"`, f.value);
  } else if (t.field === 'sigma_matches') {
    sql = SIGMA_SQL;
    params.push(test, f.value);
  } else if (t.field === 'yara_matches') {
    // Without the table no event has a payload match: `NOT 0` keeps every row, as for sigma_matches.
    sql = hasYara ? YARA_SQL : '0';
    if (hasYara) params.push(test, f.value);
  } else {
    sql = `tae_test(?, ${FIELD_SQL[t.field]}, ?)`;
    params.push(test, f.value);
  }
  return negated ? `NOT ${sql}` : sql;
}
