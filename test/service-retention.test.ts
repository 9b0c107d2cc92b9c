/**
 * Retention of public data: files and jobs made without a token are deleted a TTL after upload
 * (files) or completion (jobs), with their blob and index files and rows, by a sweep at open
 * and on demand; running jobs, the files they read and owned data stay; TTL 0 keeps all. The
 * clock is injected, so nothing sleeps.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import type { Insight } from '../src/insights/index.js';
import type { JobRunner } from '../src/jobs/index.js';
import { Engine } from '../src/service/index.js';
import { settle, tempDirs } from './helpers/engine-test.js';
import { smallLog } from './helpers/small-log.js';

const DAY = 86_400_000;
const fresh = tempDirs('tae-retention-');

/** A Sigma file runner that holds its job Processing until `release()`. */
function gated() {
  const state = { started: 0, release: () => {} };
  const OK: Insight[] = [{ Metadata: { title: 'ok', data: {}, category: 'General' } }];
  const runner: JobRunner<'sigma_file_custom'> = () =>
    new Promise((resolve) => {
      state.started++;
      state.release = () => resolve(OK);
    });
  return { state, runner };
}

/** Counts of the rows a file or job id still has, read beside the engine. */
function rows(dir: string, id: string): number {
  const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
  try {
    const q = (sql: string) => (db.prepare(sql).get(id) as { n: number }).n;
    return (
      q('SELECT count(*) AS n FROM files WHERE id = ?') +
      q('SELECT count(*) AS n FROM jobs WHERE id = ?') +
      q('SELECT count(*) AS n FROM job_results WHERE job_id = ?') +
      q('SELECT count(*) AS n FROM job_indexes WHERE job_id = ?')
    );
  } finally {
    db.close();
  }
}

const rule = Buffer.from('title: t\ndetection:\n  sel: {EventID: 1}\n  condition: sel\n').toString('base64');

test('expired public files and jobs go with their blobs, index files and rows; running jobs, their files and owned data stay', async () => {
  const dir = fresh();
  const clock = { now: Date.now() };
  const gate = gated();
  const e = await Engine.open({
    dataDir: dir,
    clock: () => clock.now,
    runners: { sigma_file_custom: gate.runner },
  });
  try {
    assert.deepEqual(
      { ttl: e.retention.publicTtlMs, every: e.retention.sweepIntervalMs },
      { ttl: 7 * DAY, every: 3_600_000 },
    );
    const pubFile = (await e.upload({ files: [{ name: 'pub.evtx', data: smallLog() }] })).file_ids[0]![0];
    const pubJob = (await e.createParseJob({ file_ids: [pubFile], run_sigma_rules: false })).id;
    assert.equal((await settle(e, pubJob)).status, 'Completed');
    const blob = join(dir, 'files', pubFile);
    const index = join(dir, 'indexes', `${pubJob}.sqlite`);
    assert.ok(
      existsSync(blob) && existsSync(index),
      'a public parse job on disk has a blob and an index file',
    );

    const busyFile = (await e.upload({ files: [{ name: 'busy.evtx', data: smallLog() }] })).file_ids[0]![0];
    const busyJob = (await e.createSigmaFileJob({ file_ids: [busyFile], operation: 'run_rule', rule })).id;
    while (gate.state.started === 0) await new Promise((r) => setTimeout(r, 5));

    const { token } = await e.createToken();
    const owner = { token, encKey: 'retention owner key 0001' };
    const ownFile = (await e.upload({ files: [{ name: 'own.evtx', data: smallLog() }] }, owner))
      .file_ids[0]![0];
    const ownJob = (await e.createParseJob({ file_ids: [ownFile], run_sigma_rules: false }, owner)).id;
    assert.equal((await settle(e, ownJob, owner)).status, 'Completed');

    clock.now += 6 * DAY;
    assert.deepEqual(await e.sweepPublicData(), { at: clock.now, filesRemoved: 0, jobsRemoved: 0 });
    clock.now += 2 * DAY;
    assert.deepEqual(await e.sweepPublicData(), { at: clock.now, filesRemoved: 1, jobsRemoved: 1 });
    assert.deepEqual(e.retention.lastSweep, { at: clock.now, filesRemoved: 1, jobsRemoved: 1 });

    await assert.rejects(e.getJob({ job_id: pubJob }), /Job [0-9a-f-]+ not found/);
    assert.equal(existsSync(blob), false, 'blob file removed');
    assert.equal(existsSync(index), false, 'index file removed');
    assert.equal(rows(dir, pubFile) + rows(dir, pubJob), 0, 'file, job, result and index rows removed');

    assert.equal((await e.getJob({ job_id: busyJob })).status, 'Processing', 'a running job stays');
    assert.ok(existsSync(join(dir, 'files', busyFile)), 'the file a running job reads stays');
    assert.deepEqual(
      (await e.listFiles(owner)).files.map((f) => f[0]),
      [ownFile],
    );
    assert.equal((await e.getJob({ job_id: ownJob }, owner)).status, 'Completed', 'owned data stays');

    gate.state.release(); // finishes now: its TTL counts from here, and it is already 8 days late
    assert.equal((await settle(e, busyJob)).status, 'Completed');
    assert.deepEqual(await e.sweepPublicData(), { at: clock.now, filesRemoved: 1, jobsRemoved: 1 });
    assert.equal(rows(dir, busyFile) + rows(dir, busyJob), 0);
    assert.equal(existsSync(join(dir, 'files', busyFile)), false);
  } finally {
    await e.close();
  }
});

test('TTL 0 keeps public data; the sweep at open removes what expired under the default TTL', async () => {
  const dir = fresh();
  const later = Date.now() + 30 * DAY;
  let e = await Engine.open({ dataDir: dir });
  const file = (await e.upload({ files: [{ name: 'a.evtx', data: smallLog() }] })).file_ids[0]![0];
  const job = (await e.createParseJob({ file_ids: [file], run_sigma_rules: false })).id;
  await settle(e, job);
  await e.close();

  e = await Engine.open({ dataDir: dir, publicTtlMs: 0, clock: () => later });
  assert.deepEqual(e.retention, {
    publicTtlMs: 0,
    sweepIntervalMs: 0,
    lastSweep: { at: later, filesRemoved: 0, jobsRemoved: 0 },
  });
  assert.deepEqual(await e.sweepPublicData(), { at: later, filesRemoved: 0, jobsRemoved: 0 });
  assert.equal((await e.getJob({ job_id: job })).status, 'Completed');
  await e.close();
  assert.equal(rows(dir, file), 1);

  const sweeps: unknown[] = [];
  e = await Engine.open({ dataDir: dir, clock: () => later, onRetentionSweep: (s) => sweeps.push(s) });
  assert.deepEqual(sweeps, [{ at: later, filesRemoved: 1, jobsRemoved: 1 }]);
  await assert.rejects(e.getJob({ job_id: job }), /Job [0-9a-f-]+ not found/);
  await e.close();
  assert.equal(rows(dir, file) + rows(dir, job), 0);
});

test('publicTtlMs and clock are checked when the engine opens, with the option named', async () => {
  for (const bad of [-1, 1.5, 59_999, '7d', 3651 * DAY, Number.NaN]) {
    await assert.rejects(
      Engine.open({ memory: true, publicTtlMs: bad as number }),
      (err: Error) =>
        err.message.startsWith('options.publicTtlMs must be 0 (keep forever) or milliseconds from 60000'),
      String(bad),
    );
  }
  await assert.rejects(
    Engine.open({ memory: true, clock: 5 as unknown as () => number }),
    /options\.clock must be/,
  );
  const e = await Engine.open({ memory: true, publicTtlMs: 60_000 });
  assert.equal(e.retention.sweepIntervalMs, 60_000);
  await e.close();
});

test('tae serve states the retention policy after its URL; a bad --public-ttl is a usage error', async () => {
  const main = join(import.meta.dirname, '..', 'src', 'cli', 'main.ts');
  const tae = (args: string[]) =>
    spawn(process.execPath, ['--import', 'tsx', main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const child = tae(['serve', '--memory', '--port', '0', '--public-ttl', '36h']);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  assert.match((await lines.next()).value as string, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(
    (await lines.next()).value,
    'retention: public data (made without a token) is deleted 36h after upload or job completion, ' +
      'checked every 1h; at start removed 0 public files, 0 public jobs',
  );
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  assert.deepEqual((await exited)[0], 0);

  const bad = tae(['serve', '--memory', '--port', '0', '--public-ttl', '7 days']);
  let stderr = '';
  bad.stderr!.on('data', (c) => {
    stderr += c;
  });
  const [code] = await once(bad, 'exit');
  assert.equal(code, 2, stderr);
  assert.match(stderr, /--public-ttl.*a duration from 1m to 3650d/);
});
