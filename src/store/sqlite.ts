/** The store's one import of the SQLite seam. */
export { openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
