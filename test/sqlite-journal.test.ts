/**
 * A build's files (the staging file, the index being built and attached files) keep no rollback
 * journal: a build that fails is thrown away whole. better-sqlite3's defensive mode ignores
 * `journal_mode = OFF` without an error, so each commit used to write `<file>-journal` first; a
 * default connection here shows the journal that the build's settings must not write.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { attachSqlite, openSqlite, type SqliteDatabase } from '../native/sqlite.js';
import { configure, stagePath } from '../src/search/complete.js';
import { openStage } from '../src/search/stager.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-sqlite-journal-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 9);

/** Whether `<file>-journal` exists while a write transaction on `schema` is open. */
function journalDuringWrite(db: SqliteDatabase, schema: string, file: string): boolean {
  db.exec(`CREATE TABLE IF NOT EXISTS ${schema}.probe (x TEXT)`);
  let seen = false;
  db.transaction(() => {
    db.prepare(`INSERT INTO ${schema}.probe VALUES (?)`).run('x'.repeat(5000));
    seen = existsSync(`${file}-journal`);
  })();
  return seen;
}

test('a default connection writes a rollback journal during a write (the control)', () => {
  const path = join(dir, 'default.sqlite');
  const db = openSqlite(path);
  try {
    assert.equal(journalDuringWrite(db, 'main', path), true);
  } finally {
    db.close();
  }
});

for (const keyed of [false, true]) {
  test(`a build's staging file writes no rollback journal (${keyed ? 'keyed' : 'plain'})`, () => {
    const path = join(dir, `stage-${keyed}.sqlite`);
    const { db } = openStage(path, keyed ? KEY : null, undefined);
    try {
      assert.equal(db.pragma('main.journal_mode', { simple: true }), 'off');
      assert.equal(journalDuringWrite(db, 'main', stagePath(path)), false);
    } finally {
      db.close();
    }
  });

  test(`a file attached and configured for a build writes no rollback journal (${keyed ? 'keyed' : 'plain'})`, () => {
    const main = join(dir, `main-${keyed}.sqlite`);
    const attached = join(dir, `attached-${keyed}.sqlite`);
    const db = openSqlite(main, keyed ? { key: KEY } : {});
    try {
      configure(db, 'main');
      attachSqlite(db, attached, 'stage', keyed ? KEY : undefined);
      configure(db, 'stage');
      assert.equal(journalDuringWrite(db, 'main', main), false);
      assert.equal(journalDuringWrite(db, 'stage', attached), false);
    } finally {
      db.close();
    }
  });
}
