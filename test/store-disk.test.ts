/**
 * The data directory on disk: deleting data gives its space back (incremental vacuum, and a
 * one-time VACUUM for a database made without it), and everything the engine creates inside
 * is owner-only (0600 files, 0700 directories) whatever the umask and the directory's mode.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { openSqlite } from '../native/sqlite.js';
import { Engine } from '../src/service/index.js';
import { settle, tempDirs } from './helpers/engine-test.js';
import { smallLog, smallLogEvents } from './helpers/small-log.js';

const fresh = tempDirs('tae-disk-');

/** A log of `n` distinct failed logons (distinct user names keep the index from compressing). */
function largeLog(n: number): Uint8Array {
  const base = smallLogEvents()[0]!;
  const t0 = Date.parse('2026-03-01T10:00:00Z');
  return writeEvtx(
    Array.from({ length: n }, (_, i) => ({
      ...base,
      time: new Date(t0 + i * 1000).toISOString().replace('Z', '0000Z'),
      eventData: { ...base.eventData, TargetUserName: `user-${i}-${(i * 2654435761) % 4294967296}` },
    })),
  );
}

function pages(dir: string): { pageCount: number; free: number; bytes: number } {
  const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
  try {
    return {
      pageCount: db.pragma('page_count', { simple: true }) as number,
      free: db.pragma('freelist_count', { simple: true }) as number,
      bytes: statSync(join(dir, 'engine.db')).size,
    };
  } finally {
    db.close();
  }
}

const modeOf = (p: string) => statSync(p).mode & 0o777;

test('deleting a large private job and its files shrinks engine.db to the pages still in use', async () => {
  const dir = fresh();
  let e = await Engine.open({ dataDir: dir });
  const { token } = await e.createToken();
  const owner = { token, encKey: 'vacuum owner key 000001' };
  const files = (await e.upload({ files: [{ name: 'big.evtx', data: largeLog(20_000) }] }, owner)).file_ids;
  const ids = files.map((f) => f[0]);
  const job = (await e.createParseJob({ file_ids: ids, run_sigma_rules: false }, owner)).id;
  assert.equal((await settle(e, job, owner)).status, 'Completed');
  await e.close(); // the last connection folds the WAL in: the file holds the job's pages
  const full = pages(dir);
  // The job's index is a file of its own; its results and file rows are what engine.db holds.
  assert.ok(full.pageCount >= 100, `the private job's rows are in the database (${full.pageCount} pages)`);

  e = await Engine.open({ dataDir: dir });
  try {
    await e.deleteJobs({ ids: [job] }, owner);
    await e.deleteFiles({ ids }, owner);
    const emptied = pages(dir);
    assert.equal(emptied.free, 0, 'no free pages are left in the file');
    assert.ok(emptied.pageCount < 50, `${emptied.pageCount} pages remain of ${full.pageCount}`);
    assert.ok(emptied.bytes < full.bytes / 2, `engine.db: ${full.bytes} → ${emptied.bytes} bytes`);
  } finally {
    await e.close();
  }
});

test('a database made without auto-vacuum is rewritten once with it, and keeps its data', async () => {
  const dir = fresh();
  let e = await Engine.open({ dataDir: dir });
  const { token } = await e.createToken();
  const owner = { token, encKey: 'vacuum owner key 000002' };
  const id = (await e.upload({ files: [{ name: 'a', data: smallLog() }] }, owner)).file_ids[0]![0];
  await e.close();
  const db = openSqlite(join(dir, 'engine.db'));
  db.pragma('auto_vacuum = NONE');
  db.exec('VACUUM'); // as an older engine left it
  assert.equal(db.pragma('auto_vacuum', { simple: true }), 0);
  db.close();

  e = await Engine.open({ dataDir: dir });
  assert.equal(e.recovery.databaseCompacted, true);
  assert.deepEqual(
    (await e.listFiles(owner)).files.map((f) => f[0]),
    [id],
  );
  await e.close();
  const after = openSqlite(join(dir, 'engine.db'), { readonly: true });
  assert.equal(after.pragma('auto_vacuum', { simple: true }), 2, 'INCREMENTAL');
  after.close();
  e = await Engine.open({ dataDir: dir });
  assert.equal(e.recovery.databaseCompacted, false, 'only once');
  await e.close();
});

test('under umask 022 in a 0755 data directory, everything the engine creates is owner-only', async () => {
  const previous = process.umask(0o022);
  const dir = fresh();
  chmodSync(dir, 0o755);
  try {
    const e = await Engine.open({ dataDir: dir });
    try {
      const pub = (await e.upload({ files: [{ name: 'p.evtx', data: smallLog() }] })).file_ids[0]![0];
      const job = (await e.createParseJob({ file_ids: [pub], run_sigma_rules: true })).id;
      assert.equal((await settle(e, job)).status, 'Completed');
      const { token } = await e.createToken();
      await e.upload(
        { files: [{ name: 'q.evtx', data: smallLog() }] },
        { token, encKey: 'modes key 0000001' },
      );

      const expected: Record<string, string> = {};
      const seen: Record<string, string> = {};
      const look = (rel: string, mode: number) => {
        expected[rel] = mode.toString(8);
        seen[rel] = modeOf(join(dir, rel)).toString(8);
      };
      for (const d of ['files', 'tmp', 'indexes']) look(d, 0o700);
      for (const f of ['engine.db', 'engine.db-wal', 'engine.db-shm', 'engine.lock', 'rule-library.sqlite'])
        look(f, 0o600);
      for (const f of readdirSync(join(dir, 'files'))) look(join('files', f), 0o600);
      assert.ok(existsSync(join(dir, 'indexes', `${job}.sqlite`)));
      for (const f of readdirSync(join(dir, 'indexes'))) look(join('indexes', f), 0o600);
      assert.equal(readdirSync(join(dir, 'files')).length, 2);
      assert.deepEqual(seen, expected);
      assert.equal(modeOf(dir), 0o755, "the user's own directory keeps its mode");
    } finally {
      await e.close();
    }
  } finally {
    process.umask(previous);
  }
});

test('files and directories an older engine created readable by others are tightened on open', async () => {
  const dir = fresh();
  await (await Engine.open({ dataDir: dir })).close();
  for (const d of ['files', 'tmp', 'indexes']) chmodSync(join(dir, d), 0o755);
  chmodSync(join(dir, 'engine.db'), 0o644);
  const e = await Engine.open({ dataDir: dir });
  try {
    assert.deepEqual(
      ['files', 'tmp', 'indexes', 'engine.db', 'engine.db-wal'].map((p) => modeOf(join(dir, p)).toString(8)),
      ['700', '700', '700', '600', '600'],
    );
  } finally {
    await e.close();
  }
});
