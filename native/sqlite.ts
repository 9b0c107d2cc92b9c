/**
 * The seam to SQLite (`better-sqlite3-multiple-ciphers` 13.x, prebuilt for linux, macOS and
 * Windows inside the package). The package is required lazily, on the first open, so importing this file never touches the native binary. When the package or its
 * compiled addon cannot load (no build for this platform, wrong Node ABI), the open fails with
 * TaeError('NATIVE_UNAVAILABLE') naming the package; a database that cannot be opened is a
 * different failure (INPUT_UNREADABLE) because the binary itself is fine.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TaeError } from '../src/errors/index.js';
import type { SqliteConstructor, SqliteDatabase } from './sqlite-types.js';

export type {
  SqliteColumn,
  SqliteDatabase,
  SqliteFunctionOptions,
  SqliteRunResult,
  SqliteStatement,
  SqliteTransaction,
} from './sqlite-types.js';

export const SQLITE_PACKAGE = 'better-sqlite3-multiple-ciphers';

type DatabaseConstructor = SqliteConstructor;

export interface SqliteOpenOptions {
  /** Path of a `better_sqlite3.node` built elsewhere (custom or air-gapped builds). */
  readonly nativeBinding?: string;
  /** Milliseconds to wait for another process's lock before failing (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Opens an existing file for reading only. */
  readonly readonly?: boolean;
  /** Fails rather than create a missing file (one that a cancelled build removed stays gone). */
  readonly mustExist?: boolean;
  /**
   * A 32-byte raw key: the file is encrypted page by page (SQLite3MultipleCiphers, AEGIS-256;
   * ChaCha20-Poly1305 files of earlier versions are read), and so are its journal and WAL;
   * temporary files are not (see CIPHER below).
   */
  readonly key?: Uint8Array;
}

/**
 * The cipher, named rather than left to the package default. A raw key (`raw:` + 64 hex
 * digits) bypasses the passphrase KDF (keys here are random 32-byte keys, which need no
 * stretching). SQLite3MultipleCiphers encrypts the main file, its rollback journal and WAL, not
 * temporary databases, sorter spills or temp journals: every connection to an encrypted file
 * must run with `temp_store = MEMORY`.
 *
 * AEGIS-256 (an AES-based AEAD, on AES-NI): writing then reading 200 MB cost 0.08 s more than
 * plain pages on this project's bench machine, against 1.2 s with ChaCha20-Poly1305, which
 * files written before index format 3 use. A private build writes its staging file, reads it
 * several times and writes the index: the 1 GB private job took 39.2 s with ChaCha20, 34.7 s
 * with AEGIS for its build files. An existing file that AEGIS cannot open is tried as ChaCha20,
 * so such files keep opening (with the wrong key, both fail alike).
 */
const CIPHER = 'aegis';
const LEGACY_CIPHER = 'chacha20';

function rawKey(key: Uint8Array): string {
  if (key.length !== 32) throw new TaeError('INTERNAL', 'a database key is 32 bytes');
  return `raw:${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex')}`;
}

/** Keys `schema` of an open connection (before its first read) and proves the key opens it. */
function keyDatabase(db: SqliteDatabase, key: Uint8Array, cipher: string): void {
  db.pragma(`cipher = '${cipher}'`);
  db.pragma(`key = '${rawKey(key)}'`);
  db.pragma('temp_store = MEMORY');
  db.prepare('SELECT count(*) FROM sqlite_schema').get(); // a wrong key fails here (SQLITE_NOTADB)
}

/**
 * Creates a missing database file owner-only (0600) before SQLite opens it: SQLite would create
 * it 0644, and gives its journal and WAL the mode of the database file.
 */
export function createDatabaseFile(filename: string): void {
  if (filename === ':memory:' || filename === '') return;
  try {
    closeSync(openSync(filename, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * Attaches a database file as `schema`, encrypted under `key` when given (with CIPHER: an
 * attached file is one this version writes, never an earlier version's). `mustExist`: fails
 * rather than create a missing file (SQLite's ATTACH creates one; the check just before it
 * is enough where files are only removed behind a gate, see src/search/blocks.ts).
 */
export function attachSqlite(
  db: SqliteDatabase,
  filename: string,
  schema: string,
  key?: Uint8Array,
  options: { readonly mustExist?: boolean } = {},
): void {
  if (!/^[a-z_]+$/.test(schema)) throw new TaeError('INTERNAL', `bad schema name ${schema}`);
  try {
    if (options.mustExist === true) {
      if (!existsSync(filename)) throw new Error('no such file');
    } else createDatabaseFile(filename);
    // The connection's cipher applies to the files it attaches next (whatever keyed `main`).
    if (key !== undefined) db.pragma(`cipher = '${CIPHER}'`);
    db.prepare(`ATTACH DATABASE ? AS ${schema} KEY ?`).run(filename, key === undefined ? '' : rawKey(key));
    db.prepare(`SELECT count(*) FROM ${schema}.sqlite_schema`).get();
  } catch (e) {
    throw new TaeError(
      'INPUT_UNREADABLE',
      `cannot attach the database ${filename}: ${(e as Error).message}`,
      {
        context: { file: filename },
        cause: e,
      },
    );
  }
}

let constructorCache: DatabaseConstructor | undefined;
/** Bindings already proven to load, so the probe runs once per binding. */
const provenBindings = new Set<string>();

function unavailable(cause: unknown): TaeError {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new TaeError('NATIVE_UNAVAILABLE', `${SQLITE_PACKAGE} cannot load on this platform: ${reason}`, {
    context: { package: SQLITE_PACKAGE, platform: `${process.platform}-${process.arch}` },
    cause,
  });
}

function databaseConstructor(): DatabaseConstructor {
  if (constructorCache !== undefined) return constructorCache;
  try {
    constructorCache = createRequire(import.meta.url)(SQLITE_PACKAGE) as DatabaseConstructor;
    return constructorCache;
  } catch (e) {
    throw unavailable(e);
  }
}

/**
 * The addon is loaded inside `new Database()`, where a load failure and an unopenable file
 * look alike; an in-memory probe separates them.
 */
function probe(Database: DatabaseConstructor, nativeBinding: string | undefined): void {
  const key = nativeBinding ?? '';
  if (provenBindings.has(key)) return;
  try {
    new Database(':memory:', nativeBinding === undefined ? {} : { nativeBinding }).close();
  } catch (e) {
    throw unavailable(e);
  }
  provenBindings.add(key);
}

/** The file exists and holds pages (so a cipher wrote it): not a new or an empty file. */
function hasPages(filename: string): boolean {
  try {
    return statSync(filename).size > 0;
  } catch {
    return false;
  }
}

/** Opens (creating if needed) a database file, or an in-memory one for `':memory:'`; `key` encrypts it. */
export function openSqlite(filename: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  const Database = databaseConstructor();
  probe(Database, options.nativeBinding);
  let db: SqliteDatabase | undefined;
  try {
    if (options.readonly !== true && options.mustExist !== true) createDatabaseFile(filename);
    const connect = () =>
      new Database(filename, {
        timeout: options.busyTimeoutMs ?? 5000,
        ...(options.readonly === true ? { readonly: true, fileMustExist: true } : {}),
        ...(options.mustExist === true ? { fileMustExist: true } : {}),
        ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
      });
    const written = options.key !== undefined && hasPages(filename);
    db = connect();
    if (options.key === undefined) return db;
    try {
      keyDatabase(db, options.key, CIPHER);
    } catch (e) {
      if (!written) throw e;
      db.close();
      db = connect();
      try {
        keyDatabase(db, options.key, LEGACY_CIPHER);
      } catch {
        throw e;
      }
    }
    return db;
  } catch (e) {
    db?.close();
    throw new TaeError('INPUT_UNREADABLE', `cannot open the database ${filename}: ${(e as Error).message}`, {
      context: { file: filename },
      cause: e,
    });
  }
}

/**
 * Opens a serialized database image (`db.serialize()`) in memory; SQLite copies the bytes. A
 * buffer that crossed threads may arrive as a plain Uint8Array.
 */
export function openSqliteImage(image: Uint8Array): SqliteDatabase {
  const Database = databaseConstructor();
  probe(Database, undefined);
  try {
    return new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  } catch (e) {
    throw new TaeError('INPUT_UNREADABLE', `cannot open a database image: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

/**
 * Turns `schema`'s rollback journal off, for a file that is thrown away whole if a write fails
 * (an index build, a copy into a new file). better-sqlite3 opens every connection in SQLite's
 * defensive mode, which leaves `journal_mode = OFF` as it was without an error: each commit then
 * wrote the pages it changed to `<file>-journal` first (a fifth of a staging file's bytes again).
 * The connection is left in safe (defensive) mode.
 */
export function journalOff(db: SqliteDatabase, schema: string): void {
  if (!/^[a-z_]+$/.test(schema)) throw new TaeError('INTERNAL', `bad schema name ${schema}`);
  db.unsafeMode(true);
  try {
    db.pragma(`${schema}.journal_mode = OFF`);
  } finally {
    db.unsafeMode(false);
  }
  const mode = db.pragma(`${schema}.journal_mode`, { simple: true });
  // An in-memory database keeps its journal in memory and cannot turn it off; that is as good.
  if (mode !== 'off' && mode !== 'memory')
    throw new TaeError('INTERNAL', `the journal of ${schema} stayed ${String(mode)}`);
}
