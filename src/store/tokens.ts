/** API tokens: the caller identities, each with a subscription level and its key binding. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isTaeError, TaeError } from '../errors/index.js';
import { SCHEMA_VERSION } from './schema.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';

export interface TokenRow {
  /** The token's digest (the owner id of files and jobs); never the token itself. */
  readonly id: string;
  readonly level: string;
  readonly createdAt: number;
  /** Salt of the owner-key derivation (fixed at issue). */
  readonly keySalt: Buffer;
  /** Check value of the bound owner key; null while no private data exists. */
  readonly keyCheck: Buffer | null;
}

interface Raw {
  id: string;
  level: string;
  created_at: number;
  key_salt: Buffer;
  key_check: Buffer | null;
}

const toRow = (r: Raw): TokenRow => ({
  id: r.id,
  level: r.level,
  createdAt: r.created_at,
  keySalt: r.key_salt,
  keyCheck: r.key_check,
});

export interface NewTokenRow {
  readonly id: string;
  readonly level: string;
  readonly createdAt: number;
  readonly keySalt: Buffer;
}

export class TokenTable {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly bindStmt;

  constructor(db: SqliteDatabase) {
    this.insertStmt = db.prepare(
      'INSERT INTO tokens (id, level, created_at, key_salt) VALUES (@id, @level, @createdAt, @keySalt)',
    );
    this.getStmt = db.prepare<[string], Raw>('SELECT * FROM tokens WHERE id = ?');
    this.bindStmt = db.prepare('UPDATE tokens SET key_check = ? WHERE id = ? AND key_check IS NULL');
  }

  insert(row: NewTokenRow): void {
    this.insertStmt.run(row);
  }

  get(id: string): TokenRow | null {
    const r = this.getStmt.get(id);
    return r === undefined ? null : toRow(r);
  }

  /** Binds a key check to a token that has none; false when another key got there first. */
  bindKey(id: string, keyCheck: Buffer): boolean {
    return this.bindStmt.run(keyCheck, id).changes === 1;
  }
}

/**
 * Adds one token row to the database of a data directory whose lock another process's engine
 * holds (`locked` is the LOCKED error its open raised). A second SQLite connection inserting
 * one row is safe beside the holder: the database is in WAL mode and both connections wait on
 * a busy lock (5 s) instead of failing. Nothing else is read, swept or migrated, so the holder's
 * uploads in progress are untouched; the holder sees the token on its next lookup.
 */
export function insertTokenBeside(dataDir: string, row: NewTokenRow, locked: TaeError): void {
  const file = join(dataDir, 'engine.db');
  if (!existsSync(file)) throw locked; // the holder is still creating it
  const db = openSqlite(file);
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      throw new TaeError(
        'INPUT_UNREADABLE',
        `${locked.message}, with database schema ${version} where this version writes ${SCHEMA_VERSION}: issue the token with the version it runs, or stop it first`,
        { context: { ...locked.context, schema: version, known: SCHEMA_VERSION } },
      );
    }
    new TokenTable(db).insert(row);
  } catch (e) {
    if (isTaeError(e)) throw e;
    throw new TaeError('INPUT_UNREADABLE', `cannot add a token to ${file}: ${(e as Error).message}`, {
      cause: e,
    });
  } finally {
    db.close();
  }
}
