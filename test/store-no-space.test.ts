/**
 * The one recogniser of a full disk (src/errors/no-space.ts) on real errors: Node's ENOSPC
 * from writing to a full tmpfs (sync, async and through a stream), SQLite's SQLITE_FULL from
 * better-sqlite3 (`PRAGMA max_page_count` caps a database as a full disk would), wrapped or
 * not, and after a thread reported it; the scheduler failing a job whose results do not fit
 * instead of leaving it Processing; the rule library trying its builtin pack again.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { fromThreadFailure, isNoSpace, TaeError, threadFailure } from '../src/errors/index.js';
import { errorInsight, metadataInsight } from '../src/insights/index.js';
import { decodeResult, JOB_NO_SPACE_TEXT } from '../src/jobs/index.js';
import { RuleLibrary } from '../src/rules/library.js';
import { settingsOf } from '../src/rules/options.js';
import { openIndex } from '../src/rules/schema.js';
import { Store } from '../src/store/index.js';
import { oneJob } from './helpers/one-job.js';
import { smallDisk, smallDiskUnavailable } from './helpers/small-disk.js';

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('no error');
};

test('ENOSPC from a full tmpfs means a full disk, wrapped, cloned across a thread, or not', {
  skip: smallDiskUnavailable(),
}, async () => {
  const disk = await smallDisk(1);
  try {
    disk.fill();
    const sync = caught(() => writeFileSync(disk.outside('a'), 'x'));
    const promised = await writeFile(disk.outside('b'), 'x').then(
      () => assert.fail('written'),
      (e) => e,
    );
    const stream = createWriteStream(disk.outside('c'));
    stream.end(Buffer.alloc(8192));
    const [streamed] = await once(stream, 'error');
    for (const e of [sync, promised, streamed]) {
      assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
      assert.ok(isNoSpace(e));
      assert.ok(isNoSpace(new TaeError('INTERNAL', 'event index build failed', { cause: e })));
      const received = fromThreadFailure(structuredClone(threadFailure(e)), 'block builder failed');
      assert.deepEqual([received.code, isNoSpace(received)], ['NO_SPACE', true]);
    }
  } finally {
    await disk.close();
  }
});

test('SQLITE_FULL from better-sqlite3 means a full disk; other SQLite and file errors do not', () => {
  const db = openSqlite(':memory:');
  try {
    db.exec('CREATE TABLE t (v BLOB UNIQUE)');
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 2}`);
    const full = caught(() => db.prepare('INSERT INTO t VALUES (?)').run(randomBytes(64 * 1024)));
    assert.equal((full as { code?: string }).code, 'SQLITE_FULL');
    assert.ok(isNoSpace(full));
    db.prepare('INSERT INTO t VALUES (?)').run(Buffer.from('a'));
    const constraint = caught(() => db.prepare('INSERT INTO t VALUES (?)').run(Buffer.from('a')));
    assert.equal((constraint as { code?: string }).code, 'SQLITE_CONSTRAINT_UNIQUE');
    assert.equal(isNoSpace(constraint), false);
  } finally {
    db.close();
  }
  const missing = caught(() => writeFileSync(join(tmpdir(), 'no-such-dir-tae', 'x'), 'x'));
  assert.equal(isNoSpace(missing), false);
  assert.equal(isNoSpace(fromThreadFailure(threadFailure(missing), 'staging failed')), false);
  const cycle: { code: string; cause?: unknown } = { code: 'EIO' };
  cycle.cause = cycle;
  for (const e of [null, undefined, 'ENOSPC', new Error('ENOSPC: no space left on device'), cycle])
    assert.equal(isNoSpace(e), false, String(e));
});

test('a job whose results do not fit the space left fails with the disk-full insight', {
  timeout: 20_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-no-space-'));
  const store = await Store.open({ dataDir: dir });
  const { promise: room, resolve: roomCapped } = Promise.withResolvers<void>();
  const { promise: settled, resolve: settle } = Promise.withResolvers<string>();
  // About 700 KB of results of a job that would complete, produced once the database is capped.
  const runner = async () => {
    await room;
    return [metadataInsight('Overview', { noise: randomBytes(512 * 1024).toString('base64') }, 'General')];
  };
  const types = [
    'winevtx',
    'sigma_file_community',
    'sigma_file_custom',
    'yara_file_community',
    'yara_file_custom',
  ];
  const { scheduler, row } = oneJob(store, Object.fromEntries(types.map((t) => [t, runner])), (e) => {
    if (e.status === 'Completed' || e.status === 'Failed') settle(e.status);
  });
  try {
    // About 60 KiB of room: the disk-full insight fits, the results do not.
    store.db.pragma(`max_page_count = ${Number(store.db.pragma('page_count', { simple: true })) + 15}`);
    roomCapped();
    assert.equal(await settled, 'Failed');
    const done = store.jobs.get(row.id)!;
    assert.deepEqual(decodeResult(done, store.jobs.result(row.id)!, null), [errorInsight(JOB_NO_SPACE_TEXT)]);
  } finally {
    await scheduler.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a rule library whose builtin pack did not fit indexes it on next use, once there is room', () => {
  const db = openIndex(undefined);
  const library = new RuleLibrary(db, settingsOf({ dataDir: false }));
  try {
    db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true })) + 4}`);
    assert.ok(isNoSpace(caught(() => library.list())));
    db.pragma('max_page_count = 1073741823');
    assert.ok(library.list({ kind: 'sigma' }).length > 0, 'the builtin rules are there');
  } finally {
    library.close();
  }
});
