/** API tokens: the caller identities, each with a subscription level and its key binding. */
import type { SqliteDatabase } from './sqlite.js';

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

  insert(row: { id: string; level: string; createdAt: number; keySalt: Buffer }): void {
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
