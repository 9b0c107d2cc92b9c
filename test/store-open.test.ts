/**
 * Opening a data directory: schema migrations and their version, refusal of a newer schema,
 * the one-engine lock (taken over from a killed holder), and the sweep of crash debris.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { Engine } from '../src/service/index.js';
import { SCHEMA_VERSION, Store } from '../src/store/index.js';
import { tempDirs } from './helpers/engine-test.js';
import { smallLog } from './helpers/small-log.js';

const fresh = tempDirs('tae-store-');

test('a new data directory gets the current schema in WAL mode, and data survives reopening', async () => {
  const dir = fresh();
  const e = await Engine.open({ dataDir: dir });
  const { token } = await e.createToken();
  const auth = { token, encKey: 'schema test key 000' };
  const id = (await e.upload({ files: [{ name: 'a', data: Buffer.from('x') }] }, auth)).file_ids[0]![0];
  await e.close();
  const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
  assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  db.close();
  const again = await Engine.open({ dataDir: dir });
  assert.deepEqual(
    (await again.listFiles(auth)).files.map((f) => f[0]),
    [id],
  );
  await again.close();
});

test('a database written by a newer engine is refused, not modified', async () => {
  const dir = fresh();
  (await Store.open({ dataDir: dir })).close();
  const db = openSqlite(join(dir, 'engine.db'));
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  await assert.rejects(Store.open({ dataDir: dir }), (e: Error) =>
    /written by a newer engine/.test(e.message),
  );
  await assert.rejects(Store.open({ dataDir: dir }), /newer engine/, 'the refused open released its lock');
});

test('a second engine on a directory in use is refused; after close it opens', async () => {
  const dir = fresh();
  const first = await Engine.open({ dataDir: dir });
  await assert.rejects(Engine.open({ dataDir: dir }), {
    code: 'LOCKED',
    message: /is locked: this process has an engine open on it$/,
  });
  await first.close();
  (await Engine.open({ dataDir: dir })).close();
});

test('the lock of a process that no longer exists is taken over', async () => {
  const dir = fresh();
  const dead = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ]).stdout.toString();
  writeFileSync(join(dir, 'engine.lock'), dead);
  const e = await Engine.open({ dataDir: dir });
  await e.close();
  writeFileSync(join(dir, 'engine.lock'), String(process.ppid)); // a live process: refused
  await assert.rejects(Engine.open({ dataDir: dir }), {
    code: 'LOCKED',
    message: new RegExp(`is locked: process ${process.ppid} has an engine open on it$`),
  });
});

test('opening removes unfinished writes and contents without a row, and reports them', async () => {
  const dir = fresh();
  const e = await Engine.open({ dataDir: dir });
  const kept = (await e.upload({ files: [{ name: 'kept', data: Buffer.from('keep me') }] })).file_ids[0]![0];
  await e.close();
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  writeFileSync(join(dir, 'tmp', 'x.part'), 'half an upload');
  writeFileSync(
    join(dir, 'files', '7d444840-9dc0-11d1-b245-5ffdce74fad2'),
    'committed, but its row never was',
  );
  const again = await Engine.open({ dataDir: dir });
  assert.equal(again.recovery.tempFilesRemoved, 1);
  assert.equal(again.recovery.orphanBlobsRemoved, 1);
  assert.deepEqual(readdirSync(join(dir, 'files')), [kept]);
  await again.close();
});

test('engine options are validated at the door', async () => {
  await assert.rejects(Engine.open({}), /options\.dataDir must be/);
  await assert.rejects(Engine.open({ memory: true, dataDir: '/tmp/x' }), /options\.dataDir must be/);
  await assert.rejects(Engine.open({ memory: true, concurrency: 0 }), /options\.concurrency must be/);
  await assert.rejects(
    Engine.open({ memory: true, limits: { uploadFileBytes: -1 } }),
    /options\.limits\.uploadFileBytes/,
  );
  await assert.rejects(
    Engine.open({ memory: true, durability: 'fast' as never }),
    /options\.durability must be/,
  );
  const e = await Engine.open({ memory: true });
  await assert.rejects(e.createToken({ level: 'gold' as never }), /options\.level must be/);
  await e.close();
  await assert.rejects(e.listFiles(), /the engine is closed/);
});

function filesContaining(dir: string, needle: string): string[] {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((x) =>
      x.isDirectory() ? walk(join(d, x.name)) : [join(d, x.name)],
    );
  return walk(dir).filter((f) => readFileSync(f).includes(Buffer.from(needle)));
}

test('the database holds token digests, never the bearer tokens themselves', async () => {
  const dir = fresh();
  const e = await Engine.open({ dataDir: dir });
  const { token } = await e.createToken();
  await e.upload(
    { files: [{ name: 'a', data: Buffer.from('x') }] },
    { token, encKey: 'digest test key 0000' },
  );
  await e.close();
  assert.deepEqual(filesContaining(dir, token), []);
});

test('deleting a file and a job leaves none of their data anywhere under the data directory', async () => {
  const dir = fresh();
  const marker = `deleted-${Date.now().toString(36)}.evtx`;
  const e = await Engine.open({ dataDir: dir });
  const auth = { token: (await e.createToken()).token };
  const up = await e.upload({ files: [{ name: marker, data: smallLog() }] });
  const file = up.file_ids[0]![0];
  const job = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
  for (let i = 0; i < 200 && (await e.getJob({ job_id: job.id })).status !== 'Completed'; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.match(JSON.stringify((await e.getJob({ job_id: job.id })).insights), new RegExp(marker));
  assert.ok(filesContaining(dir, marker).length > 0, 'the name is in the database before deletion');
  await e.deleteJobs({ ids: [job.id] }, auth);
  // A public file belongs to no one; the embedding program deletes it through the store.
  await e.close();
  const store = await Store.open({ dataDir: dir });
  store.files.deleteAllIf([file], (f) => f !== null);
  await store.blobs.remove(file);
  store.checkpoint();
  store.close();
  assert.deepEqual(filesContaining(dir, marker), []);
  assert.deepEqual(readdirSync(join(dir, 'files')), []);
});
