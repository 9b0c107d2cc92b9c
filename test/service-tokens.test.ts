/**
 * Issue 13, defect 7, in the library: `issueToken(dataDir)` issues on a free directory and
 * beside an engine that holds it (here one in this process), which accepts the token at once;
 * beside an engine of another schema version it refuses, adding nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { Engine, issueToken } from '../src/service/index.js';

const root = mkdtempSync(join(tmpdir(), 'tae-tokens-'));
after(() => rmSync(root, { recursive: true, force: true }));

const tokenCount = (dir: string) => {
  const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM tokens').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test('issueToken on a free directory opens it alone; the next engine accepts the token', async () => {
  const dir = join(root, 'free');
  const issued = await issueToken(dir, { level: 'standard' });
  assert.deepEqual([issued.level, issued.beside], ['standard', false]);
  const e = await Engine.open({ dataDir: dir });
  try {
    assert.deepEqual(await e.listFiles({ token: issued.token }), { files: [] });
  } finally {
    await e.close();
  }
});

test('issueToken beside an engine that holds the directory: the engine accepts the token at once', async () => {
  const dir = join(root, 'held');
  const e = await Engine.open({ dataDir: dir });
  try {
    await assert.rejects(Engine.open({ dataDir: dir }), { code: 'LOCKED' });
    const issued = await issueToken(dir, { level: 'premium' });
    assert.equal(issued.beside, true);
    assert.deepEqual(await e.listJobs({ token: issued.token }), { jobs: [] });
  } finally {
    await e.close();
  }
});

test('beside an engine whose database has another schema version, issueToken refuses and adds nothing', async () => {
  const dir = join(root, 'other-version');
  const e = await Engine.open({ dataDir: dir });
  const db = openSqlite(join(dir, 'engine.db'));
  const version = db.pragma('user_version', { simple: true }) as number;
  db.pragma(`user_version = ${version + 1}`);
  try {
    await assert.rejects(issueToken(dir), {
      code: 'INPUT_UNREADABLE',
      message: new RegExp(`is locked: .*schema ${version + 1} where this version writes ${version}:`),
    });
    assert.equal(tokenCount(dir), 0);
  } finally {
    db.pragma(`user_version = ${version}`);
    db.close();
    await e.close();
  }
});
