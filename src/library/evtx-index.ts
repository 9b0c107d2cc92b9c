/**
 * A built event index, open for searches: the same SQLite file a parse job's index is and the
 * same queries the Engine's search endpoint runs (src/search), answered in the endpoint's
 * shapes. `browse_events: false` answers as the endpoint does for a job: the analysis rebuilt
 * from the window's events, `id` and `job_name` being the index's, with the Error insights of
 * files that could not be decoded. A temporary index (built without `path`) is encrypted under
 * a key held only in memory and removed with its directory on `close()`.
 */
import { rmSync } from 'node:fs';
import { openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import type { DescribeEvent } from '../analysis/index.js';
import { TaeError } from '../errors/index.js';
import type { ErrorInsight, IndexTableRow } from '../insights/index.js';
import { eventDescriber } from '../lookup/index.js';
import {
  checkSearchRequest,
  EventIndex,
  type EventTableResponse,
  eventTable,
  type PlacedRow,
  type RebuiltJobResponse,
  rebuildInsights,
  type SearchRequest,
  type SearchResponse,
} from '../search/index.js';

/** The spec's search body without `job_id`: the index is the job. */
export type IndexSearchRequest = Omit<SearchRequest, 'job_id'>;

/** What `matches` takes: a search request without paging or `browse_events`. */
export type IndexMatchesRequest = Omit<IndexSearchRequest, 'page' | 'show' | 'browse_events'>;

/** An event index built by `buildIndex`; close it when done. */
export interface EvtxIndex {
  /** A random UUID: the `id` of `browse_events: false` answers. */
  readonly id: string;
  /** The `job_name` of `browse_events: false` answers. */
  readonly name: string;
  /** The index file (for a temporary index, inside a directory removed on close). */
  readonly path: string;
  readonly temporary: boolean;
  /** Events indexed (duplicates left out, as a job leaves them out). */
  readonly events: number;
  /** Whether it was built with Sigma rules (`sigma_matches` filters then find matches). */
  readonly sigma: boolean;
  /** One `<file name>: <reason>` Error insight per file that could not be decoded. */
  readonly errors: readonly ErrorInsight[];
  readonly closed: boolean;
  /** Bad requests fail with the endpoint's 400 messages as a `TaeError`. */
  search(request: IndexSearchRequest & { readonly browse_events: true }): Promise<EventTableResponse>;
  search(request: IndexSearchRequest & { readonly browse_events: false }): Promise<RebuiltJobResponse>;
  search(request: IndexSearchRequest): Promise<SearchResponse>;
  /**
   * Every event the request matches, in the order of `search`, in batches of up to 1,000 rows
   * of the Event Table (`page` and `show` ignored: no 10 pages × 100 cap). Read each batch
   * before the next search or `close()`.
   */
  matches(request: IndexMatchesRequest): Generator<IndexTableRow[]>;
  /** Closes the file; a temporary index is removed. Closing twice does nothing. */
  close(): void;
}

/** Page cache of an open index (KiB), as the Engine's: searches read at most this much into memory. */
const CACHE_KIB = 8 * 1024;
let describe: DescribeEvent | undefined;

/** The endpoint's 400s for a malformed body (service error table rows search.badTimeRange/badRequest). */
export function checkedQuery(request: unknown) {
  const checked = checkSearchRequest(request);
  if (checked.ok) return checked.query;
  const message =
    checked.problem === 'time_range' ? 'Invalid time range' : `Invalid request: ${checked.details}`;
  throw new TaeError('INVALID_ARGUMENT', message, { context: { details: checked.details } });
}

export interface OpenIndexInit {
  readonly id: string;
  readonly name: string;
  readonly path: string;
  /** The temporary directory to remove on close, or null for a caller's path. */
  readonly tempDir: string | null;
  readonly key: Buffer | null;
  readonly errors: readonly ErrorInsight[];
}

export class OpenIndex implements EvtxIndex {
  readonly id: string;
  readonly name: string;
  readonly path: string;
  readonly temporary: boolean;
  readonly errors: readonly ErrorInsight[];
  readonly events: number;
  readonly sigma: boolean;
  private db: SqliteDatabase | null;
  private readonly index: EventIndex;
  private readonly tempDir: string | null;

  constructor(init: OpenIndexInit) {
    this.id = init.id;
    this.name = init.name;
    this.path = init.path;
    this.tempDir = init.tempDir;
    this.temporary = init.tempDir !== null;
    this.errors = init.errors;
    const db = openSqlite(init.path, { readonly: true, ...(init.key === null ? {} : { key: init.key }) });
    try {
      db.pragma(`cache_size = ${-CACHE_KIB}`);
      db.pragma('query_only = ON');
      this.index = EventIndex.of(db);
    } catch (e) {
      db.close();
      throw e;
    }
    this.db = db;
    this.events = this.index.meta.events;
    this.sigma = this.index.meta.sigma;
  }

  get closed(): boolean {
    return this.db === null;
  }

  search(request: IndexSearchRequest & { readonly browse_events: true }): Promise<EventTableResponse>;
  search(request: IndexSearchRequest & { readonly browse_events: false }): Promise<RebuiltJobResponse>;
  search(request: IndexSearchRequest): Promise<SearchResponse>;
  async search(request: IndexSearchRequest): Promise<SearchResponse> {
    const q = checkedQuery(request);
    if (this.db === null) throw new TaeError('INVALID_ARGUMENT', 'the index is closed');
    if (q.browseEvents) return eventTable(this.index, q);
    describe ??= eventDescriber();
    const insights = rebuildInsights(this.index, { start: q.start, end: q.end, describe });
    return { id: this.id, job_name: this.name, status: 'Completed', insights: [...insights, ...this.errors] };
  }

  *matches(request: IndexMatchesRequest): Generator<IndexTableRow[]> {
    const { page: _page, show: _show, ...rest } = request as IndexSearchRequest;
    const q = checkedQuery({ ...rest, browse_events: true });
    if (this.db === null) throw new TaeError('INVALID_ARGUMENT', 'the index is closed');
    for (const batch of this.index.searchAll(q)) {
      if (this.db === null) return; // closed between batches
      yield batch;
    }
  }

  /**
   * The page `search` answers (or with `all`, every match in batches), each row with its
   * channel and file name: for the CLI's structured output, not the endpoint's shape.
   */
  *placed(request: IndexSearchRequest, all: boolean): Generator<PlacedRow[]> {
    const q = checkedQuery({ ...request, browse_events: true });
    if (this.db === null) throw new TaeError('INVALID_ARGUMENT', 'the index is closed');
    if (!all) {
      yield this.index.searchPlaced(q);
      return;
    }
    for (const batch of this.index.searchAllPlaced(q)) {
      if (this.db === null) return; // closed between batches
      yield batch;
    }
  }

  /** How many events `request` matches (its page and show aside), counted up to `cap`. */
  count(request: IndexSearchRequest, cap: number): number {
    const q = checkedQuery({ ...request, browse_events: true });
    if (this.db === null) throw new TaeError('INVALID_ARGUMENT', 'the index is closed');
    return this.index.count(q, cap);
  }

  close(): void {
    if (this.db === null) return;
    this.db.close();
    this.db = null;
    if (this.tempDir !== null) rmSync(this.tempDir, { recursive: true, force: true });
  }
}
