/**
 * The cipher of each file of a private index build (native/sqlite.ts CIPHERS): the staging file
 * and block files, made and removed within the build, are AEGIS; the index and every other file
 * that outlives a build stay ChaCha20. Neither opens as the other, an attach takes the cipher it
 * is asked for whatever keyed the connection, and no page holds plaintext.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { attachSqlite, openSqlite } from '../native/sqlite.js';
import { openStageReader } from '../src/search/blocks.js';
import { stagePath } from '../src/search/complete.js';
import { openStage } from '../src/search/stager.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-build-ciphers-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 7);
const MARKER = 'plaintext-marker-4b1d';

const opens = (path: string, transient: boolean) => {
  try {
    openSqlite(path, { key: KEY, transient, readonly: true }).close();
    return true;
  } catch {
    return false;
  }
};

test('a build staging file opens only with the transient cipher, and its reader reads it', () => {
  const path = join(dir, 'index.sqlite');
  const { db } = openStage(path, KEY, undefined);
  db.exec(`CREATE TABLE marker (x TEXT); INSERT INTO marker VALUES ('${MARKER}')`);
  db.close();
  assert.equal(opens(stagePath(path), true), true);
  assert.equal(opens(stagePath(path), false), false, 'not as a durable (ChaCha20) file');
  assert.equal(readFileSync(stagePath(path)).includes(MARKER), false);
  const reader = openStageReader({
    stage: stagePath(path),
    key: KEY,
    gate: new Int32Array(new SharedArrayBuffer(8)),
  });
  try {
    assert.equal(reader.prepare('SELECT x FROM marker').pluck().get(), MARKER);
  } finally {
    reader.close();
  }
});

test('an attach takes the cipher asked for, whatever keyed the connection', () => {
  const durable = join(dir, 'durable.sqlite');
  const transient = join(dir, 'transient.sqlite');
  const main = openSqlite(join(dir, 'main.sqlite'), { key: KEY, transient: true });
  try {
    attachSqlite(main, durable, 'd', KEY);
    attachSqlite(main, transient, 't', KEY, { transient: true });
    main.exec(`CREATE TABLE d.x (v TEXT); INSERT INTO d.x VALUES ('${MARKER}')`);
    main.exec(`CREATE TABLE t.x (v TEXT); INSERT INTO t.x VALUES ('${MARKER}')`);
  } finally {
    main.close();
  }
  assert.deepEqual([opens(durable, false), opens(durable, true)], [true, false]);
  assert.deepEqual([opens(transient, true), opens(transient, false)], [true, false]);
  for (const f of [durable, transient, join(dir, 'main.sqlite')])
    assert.equal(readFileSync(f).includes(MARKER), false, f);
  const plain = openSqlite(join(dir, 'plain.sqlite'));
  try {
    assert.throws(
      () => attachSqlite(plain, transient, 't', KEY),
      /cannot attach/,
      'a durable attach of a transient file fails',
    );
  } finally {
    plain.close();
  }
});
