/**
 * The seam to SQLite (`better-sqlite3-multiple-ciphers` 13.x, prebuilt for linux, macOS and
 * Windows inside the package). The package is required lazily, on the first open, so importing this file never touches the native binary. When the package or its
 * compiled addon cannot load (no build for this platform, wrong Node ABI), the open fails with
 * TaeError('NATIVE_UNAVAILABLE') naming the package; a database that cannot be opened is a
 * different failure (INPUT_UNREADABLE) because the binary itself is fine.
 */
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

/** Opens (creating if needed) a database file, or an in-memory one for `':memory:'`. */
export function openSqlite(filename: string, options: SqliteOpenOptions = {}): SqliteDatabase {
  const Database = databaseConstructor();
  probe(Database, options.nativeBinding);
  try {
    return new Database(filename, {
      timeout: options.busyTimeoutMs ?? 5000,
      ...(options.readonly === true ? { readonly: true, fileMustExist: true } : {}),
      ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    });
  } catch (e) {
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
