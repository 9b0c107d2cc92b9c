/** File metadata rows; the contents live in the blob store under the same id. */
import type { SqliteDatabase } from './sqlite.js';

export type Visibility = 'public' | 'private';

export interface FileRow {
  readonly id: string;
  readonly owner: string | null;
  readonly name: string;
  readonly createdAt: number;
  readonly visibility: Visibility;
  /** Plaintext size in bytes. */
  readonly size: number;
  /** Per-file data key sealed under the owner key; null for unencrypted files. */
  readonly wrappedKey: Buffer | null;
}

interface Raw {
  id: string;
  owner: string | null;
  name: string;
  created_at: number;
  visibility: Visibility;
  size: number;
  wrapped_key: Buffer | null;
}

const toRow = (r: Raw): FileRow => ({
  id: r.id,
  owner: r.owner,
  name: r.name,
  createdAt: r.created_at,
  visibility: r.visibility,
  size: r.size,
  wrappedKey: r.wrapped_key,
});

export class FileTable {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly byOwnerStmt;
  private readonly deleteStmt;
  private readonly idsStmt;
  private readonly expiredStmt;

  constructor(private readonly db: SqliteDatabase) {
    this.insertStmt = db.prepare(
      `INSERT INTO files (id, owner, name, created_at, visibility, size, wrapped_key)
       VALUES (@id, @owner, @name, @createdAt, @visibility, @size, @wrappedKey)`,
    );
    this.getStmt = db.prepare<[string], Raw>('SELECT * FROM files WHERE id = ?');
    this.byOwnerStmt = db.prepare<[string], Raw>('SELECT * FROM files WHERE owner = ? ORDER BY seq');
    this.deleteStmt = db.prepare('DELETE FROM files WHERE id = ?');
    this.idsStmt = db.prepare<[], { id: string }>('SELECT id FROM files');
    this.expiredStmt = db.prepare<[number, number, number], { seq: number; id: string }>(
      // files_by_owner serves owner IS NULL in seq order
      'SELECT seq, id FROM files WHERE owner IS NULL AND created_at < ? AND seq > ? ORDER BY seq LIMIT ?',
    );
  }

  /** Inserts all rows in one transaction: an upload's files appear together or not at all. */
  insertAll(rows: readonly FileRow[]): void {
    this.db.transaction(() => {
      for (const r of rows) this.insertStmt.run(r);
    })();
  }

  get(id: string): FileRow | null {
    const r = this.getStmt.get(id);
    return r === undefined ? null : toRow(r);
  }

  listByOwner(owner: string): FileRow[] {
    return this.byOwnerStmt.all(owner).map(toRow);
  }

  /**
   * Deletes the rows of `ids` in one transaction if `check` accepts every row (null when an id
   * has no row); otherwise deletes nothing and returns the first rejected id.
   */
  deleteAllIf(ids: readonly string[], check: (row: FileRow | null) => boolean): string | null {
    return this.db.transaction((): string | null => {
      for (const id of ids) if (!check(this.get(id))) return id;
      for (const id of ids) this.deleteStmt.run(id);
      return null;
    })();
  }

  /** Up to `limit` files without owner uploaded before `before`, after `afterSeq` in upload order. */
  expiredPublic(before: number, afterSeq: number, limit: number): { seq: number; id: string }[] {
    return this.expiredStmt.all(before, afterSeq, limit);
  }

  allIds(): Set<string> {
    return new Set(this.idsStmt.all().map((r) => r.id));
  }
}
