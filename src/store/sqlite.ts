/** The store's one import of the SQLite seam. */
import { openSqlite, type SqliteDatabase } from '../../native/sqlite.js';

export { openSqlite, type SqliteDatabase };

type ImageConstructor = new (image: Buffer) => SqliteDatabase;
let imageConstructor: ImageConstructor | undefined;

/**
 * Opens a serialized database image in memory (better-sqlite3's `new Database(buffer)`). The
 * seam has no entry for it yet, so the class comes from a database the seam opened (which also
 * proved the addon loads).
 */
export function openSqliteImage(image: Buffer): SqliteDatabase {
  if (imageConstructor === undefined) {
    const probe = openSqlite(':memory:');
    imageConstructor = probe.constructor as ImageConstructor;
    probe.close();
  }
  return new imageConstructor(image);
}
