/**
 * Opening the store: SQLite (WAL, foreign keys, secure delete, incremental auto-vacuum) plus
 * the blob store and the event indexes, all under one data directory (owner-only, see
 * owner-only.ts), or all in memory. Opening also clears what a crash can leave behind:
 * unfinished blob writes, blobs whose upload never committed its rows, unfinished index builds
 * and index files whose job is gone.
 *
 * A store in memory still keeps its event indexes in files, so that memory does not grow with
 * the input: in an owner-only temporary directory given at open and removed at close, every
 * file encrypted (private ones under their job's key, public ones under a random key of this
 * store that only this process ever holds), so what a killed process leaves there is noise.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { invalidOption } from '../errors/index.js';
import { type BlobStore, diskBlobs, memoryBlobs } from './blobs.js';
import { FileTable } from './files.js';
import { IndexStore } from './indexes.js';
import { JobTable } from './jobs.js';
import { lockDataDir } from './lock.js';
import { ownerOnlyDatabase, tightenFile } from './owner-only.js';
import { migrate, SCHEMA_VERSION } from './schema.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';
import { TokenTable } from './tokens.js';

export interface StoreOptions {
  /** Directory for `engine.db` and `files/`; omitted: everything stays in memory. */
  readonly dataDir?: string;
  /**
   * Without `dataDir`: the empty owner-only directory the event indexes are kept in, removed
   * at close. The caller makes it (src/search/temp-dirs.ts), named so that a later process can
   * sweep it when this one is killed before its close.
   */
  readonly indexDir?: string;
  /**
   * `normal` (default) survives a killed process: WAL commits reach the OS at once. `full`
   * also survives power loss, at one fsync per commit.
   */
  readonly durability?: 'normal' | 'full';
}

export interface RecoveryReport {
  readonly tempFilesRemoved: number;
  readonly orphanBlobsRemoved: number;
  /** Unfinished event-index builds and index files of deleted jobs, removed. */
  readonly indexFilesRemoved: number;
  /** The database was rewritten once to turn on incremental auto-vacuum (made before it existed). */
  readonly databaseCompacted: boolean;
}

/**
 * Deleted rows free pages that incremental vacuum returns to the file system. The mode must be
 * set before the first table exists; a database made without it is rewritten once (VACUUM).
 */
function incrementalAutoVacuum(db: SqliteDatabase): boolean {
  const INCREMENTAL = 2;
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return false;
  // A newer engine's database is refused by migrate, unmodified.
  if ((db.pragma('user_version', { simple: true }) as number) > SCHEMA_VERSION) return false;
  db.pragma('auto_vacuum = INCREMENTAL');
  const tables = db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number };
  if (tables.n === 0) return false; // a new database: the mode applies as tables are made
  db.exec('VACUUM');
  return true;
}

export class Store {
  readonly tokens: TokenTable;
  readonly files: FileTable;
  readonly jobs: JobTable;

  private constructor(
    readonly db: SqliteDatabase,
    readonly blobs: BlobStore,
    /** Event indexes of parse jobs (see indexes.ts). */
    readonly indexes: IndexStore,
    readonly recovery: RecoveryReport,
    private readonly unlock: () => void,
    /** The temporary index directory of a store in memory, removed at close. */
    private readonly tempDir: string | null,
  ) {
    this.tokens = new TokenTable(db);
    this.files = new FileTable(db);
    this.jobs = new JobTable(db);
  }

  static async open(options: StoreOptions = {}): Promise<Store> {
    const dir = options.dataDir;
    if (dir !== undefined) await mkdir(dir, { recursive: true, mode: 0o700 });
    const unlock = dir === undefined ? () => {} : lockDataDir(dir);
    if (dir === undefined && options.indexDir === undefined)
      throw invalidOption('indexDir', 'a directory when there is no dataDir', undefined);
    const tempDir = dir === undefined ? options.indexDir! : null;
    const release = () => {
      unlock();
      if (tempDir !== null) rmSync(tempDir, { recursive: true, force: true });
    };
    let db: SqliteDatabase;
    try {
      if (dir !== undefined) {
        tightenFile(join(dir, 'engine.lock')); // a pid only, but nothing here is for others
        ownerOnlyDatabase(join(dir, 'engine.db'));
      }
      db = openSqlite(dir === undefined ? ':memory:' : join(dir, 'engine.db'));
    } catch (e) {
      release();
      throw e;
    }
    try {
      if (dir !== undefined) db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}`);
      db.pragma('foreign_keys = ON');
      db.pragma('secure_delete = ON');
      db.pragma('temp_store = MEMORY');
      const databaseCompacted = incrementalAutoVacuum(db);
      migrate(db);
      db.pragma('incremental_vacuum'); // pages a crash left free between a delete and its vacuum
      const blobs = dir === undefined ? memoryBlobs() : await diskBlobs(dir);
      const tempFilesRemoved = await blobs.sweepTemp();
      const known = new FileTable(db).allIds();
      let orphanBlobsRemoved = 0;
      for (const id of await blobs.list()) {
        if (known.has(id)) continue;
        await blobs.remove(id);
        orphanBlobsRemoved++;
      }
      const indexes =
        tempDir === null
          ? new IndexStore(db, join(dir!, 'indexes'), null)
          : new IndexStore(db, tempDir, randomBytes(32));
      const indexFilesRemoved = indexes.sweep();
      return new Store(
        db,
        blobs,
        indexes,
        { tempFilesRemoved, orphanBlobsRemoved, indexFilesRemoved, databaseCompacted },
        unlock,
        tempDir,
      );
    } catch (e) {
      db.close();
      release();
      throw e;
    }
  }

  /**
   * After deletions: gives the freed pages back to the file system (incremental vacuum), then
   * folds the write-ahead log into the database and empties it, so that deleted rows (already
   * zeroed in place by secure_delete) leave no older copy in the log either, and the database
   * file shrinks to the pages still in use.
   */
  checkpoint(): void {
    if (!this.db.open) return;
    this.db.pragma('incremental_vacuum');
    if (this.db.pragma('journal_mode', { simple: true }) === 'wal') {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
    }
  }

  close(): void {
    if (!this.db.open) return;
    this.indexes.close();
    this.db.close();
    this.unlock();
    if (this.tempDir !== null) rmSync(this.tempDir, { recursive: true, force: true });
  }
}
