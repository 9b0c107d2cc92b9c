/**
 * The cipher of encrypted SQLite files (native/sqlite.ts CIPHER): every keyed file this version
 * writes (a private build's staging and block files, its index) is AEGIS-256; an index an
 * earlier version wrote with ChaCha20 still opens with its key, untouched by the attempt, and a
 * wrong key fails either way. No page holds plaintext. An addon that cannot load is reported, not
 * a crash.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { attachSqlite, openSqlite, SQLITE_PACKAGE } from '../native/sqlite.js';
import type { SqliteConstructor } from '../native/sqlite-types.js';
import { TaeError } from '../src/errors/index.js';
import { openStageReader } from '../src/search/blocks.js';
import { stagePath } from '../src/search/complete.js';
import { openStage } from '../src/search/stager.js';

const Database = createRequire(import.meta.url)(SQLITE_PACKAGE) as SqliteConstructor;
const dir = mkdtempSync(join(tmpdir(), 'tae-sqlite-ciphers-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 7);
const RAW = `raw:${KEY.toString('hex')}`;
const MARKER = 'plaintext-marker-4b1d';

/** Whether the package itself opens `path` with `cipher` and the key (as any SQLite3MC reader would). */
function opensAs(path: string, cipher: string): boolean {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`cipher = '${cipher}'`);
    db.pragma(`key = '${RAW}'`);
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

test('a keyed file written now, opened or attached, is AEGIS-256 and holds no plaintext', () => {
  const opened = join(dir, 'opened.sqlite');
  const attached = join(dir, 'attached.sqlite');
  const db = openSqlite(opened, { key: KEY });
  try {
    attachSqlite(db, attached, 'a', KEY);
    db.exec(`CREATE TABLE x (v TEXT); INSERT INTO x VALUES ('${MARKER}')`);
    db.exec(`CREATE TABLE a.x (v TEXT); INSERT INTO a.x VALUES ('${MARKER}')`);
  } finally {
    db.close();
  }
  for (const f of [opened, attached]) {
    assert.deepEqual([opensAs(f, 'aegis'), opensAs(f, 'chacha20')], [true, false], f);
    assert.equal(readFileSync(f).includes(MARKER), false, f);
  }
});

test("a build's staging file is AEGIS-256 and its reader reads it", () => {
  const path = join(dir, 'index.sqlite');
  const { db } = openStage(path, KEY, undefined);
  db.exec(`CREATE TABLE marker (x TEXT); INSERT INTO marker VALUES ('${MARKER}')`);
  db.close();
  assert.deepEqual([opensAs(stagePath(path), 'aegis'), opensAs(stagePath(path), 'chacha20')], [true, false]);
  const gate = new Int32Array(new SharedArrayBuffer(8));
  const reader = openStageReader({ stage: stagePath(path), key: KEY, gate });
  try {
    assert.equal(reader.prepare('SELECT x FROM marker').pluck().get(), MARKER);
  } finally {
    reader.close();
  }
});

test('a ChaCha20 file of an earlier version opens with its key, untouched by the attempt; a wrong key fails', () => {
  const legacy = join(dir, 'legacy.sqlite');
  const w = new Database(legacy);
  w.pragma("cipher = 'chacha20'");
  w.pragma(`key = '${RAW}'`);
  w.exec(`CREATE TABLE x (v TEXT); INSERT INTO x VALUES ('${MARKER}')`);
  w.close();
  const before = readFileSync(legacy);
  for (const readonly of [true, false]) {
    const db = openSqlite(legacy, { key: KEY, readonly, mustExist: true });
    try {
      assert.equal(db.prepare('SELECT v FROM x').pluck().get(), MARKER);
    } finally {
      db.close();
    }
  }
  assert.ok(readFileSync(legacy).equals(before), 'reading changed no byte');
  assert.throws(
    () => openSqlite(legacy, { key: Buffer.alloc(32, 8), readonly: true }),
    /cannot open the database/,
  );
  assert.throws(
    () => openSqlite(join(dir, 'opened.sqlite'), { key: Buffer.alloc(32, 8), readonly: true }),
    /cannot open the database/,
  );
});

test('the SQLite seam reports an addon that cannot load as NATIVE_UNAVAILABLE, not as a crash', () => {
  assert.throws(
    () => openSqlite(':memory:', { nativeBinding: join(dir, 'nowhere', 'better_sqlite3.node') }),
    (e: unknown) =>
      e instanceof TaeError &&
      e.code === 'NATIVE_UNAVAILABLE' &&
      e.status === 501 &&
      /^better-sqlite3-multiple-ciphers cannot load on this platform: /.test(e.message),
  );
  const db = openSqlite(':memory:');
  assert.equal(db.prepare('SELECT 1 + 1').pluck().get(), 2);
  db.close();
});
