/** The store's one import of the SQLite seam. */
export {
  attachSqlite,
  journalOff,
  openSqlite,
  openSqliteImage,
  type SqliteDatabase,
} from '../../native/sqlite.js';
