/**
 * The index's SQLite schema. Contents are stored once per SHA-256, so an archive can be
 * deleted after import and identical files in several packs cost one copy. The YARA
 * compiler's verdict sits beside the content it judged.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import { TaeError } from '../errors/index.js';

export const SCHEMA_VERSION = '1';
/** The index file inside a data directory. */
export const INDEX_FILE = 'rule-library.sqlite';

const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS packs (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  format TEXT NOT NULL CHECK (format IN ('builtin', 'directory', 'zip')),
  source TEXT NOT NULL UNIQUE,
  position INTEGER NOT NULL UNIQUE,
  fingerprint TEXT NOT NULL,
  indexed_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS contents (
  hash TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  yara_checker TEXT,
  yara_error TEXT
) STRICT;
CREATE TABLE IF NOT EXISTS rules (
  id INTEGER PRIMARY KEY,
  pack_id INTEGER NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('sigma', 'yara')),
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  hash TEXT NOT NULL REFERENCES contents (hash),
  title TEXT,
  description TEXT,
  author TEXT,
  tags TEXT NOT NULL,
  level TEXT,
  status TEXT,
  rule_id TEXT,
  UNIQUE (pack_id, path)
) STRICT;
CREATE INDEX IF NOT EXISTS rules_by_name ON rules (kind, name);
CREATE INDEX IF NOT EXISTS rules_by_hash ON rules (hash);
-- Every name a file is retrieved by: its stem, and for YARA each rule it declares (what results
-- show). Added after schema 1 shipped: RuleStore.backfillNames fills it for older indexes.
CREATE TABLE IF NOT EXISTS rule_names (
  rule_id INTEGER NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  PRIMARY KEY (rule_id, name)
) STRICT;
CREATE INDEX IF NOT EXISTS rule_names_by_name ON rule_names (name);
CREATE TABLE IF NOT EXISTS diagnostics (
  id INTEGER PRIMARY KEY,
  pack_id INTEGER NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS diagnostics_by_pack ON diagnostics (pack_id, path);
`;

/** Opens the index: in memory without a data directory, else `<dataDir>/rule-library.sqlite`. */
export function openIndex(dataDir: string | undefined): SqliteDatabase {
  let file = ':memory:';
  if (dataDir !== undefined) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (e) {
      throw new TaeError(
        'INPUT_UNREADABLE',
        `cannot create the data directory ${dataDir}: ${(e as Error).message}`,
        {
          context: { dataDir },
          cause: e,
        },
      );
    }
    file = join(dataDir, INDEX_FILE);
  }
  const db = openSqlite(file);
  try {
    db.pragma('foreign_keys = ON');
    if (dataDir !== undefined) db.pragma('synchronous = NORMAL');
    db.exec(DDL);
    const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get('schema');
    if (row === undefined)
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('schema', SCHEMA_VERSION);
    else if (row.value !== SCHEMA_VERSION)
      throw new TaeError(
        'INPUT_UNREADABLE',
        `${file} has index schema ${row.value}; this version reads ${SCHEMA_VERSION}`,
        {
          context: { file },
        },
      );
  } catch (e) {
    db.close();
    if (e instanceof TaeError) throw e;
    throw new TaeError('INPUT_UNREADABLE', `${file} is not a usable rule index: ${(e as Error).message}`, {
      context: { file },
      cause: e,
    });
  }
  return db;
}
