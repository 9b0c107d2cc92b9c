/**
 * A parse job whose event index fills the disk while its writer thread stages events: the job
 * must end Failed with the disk-full insight and `tae jobs parse` exit 7, not wait forever.
 * Once the writer thread had failed, the build removed the staging file while the thread still
 * held it open (its space not yet back), so the job's Failed status did not fit in engine.db
 * either; the scheduler gave up writing it, the job stayed Processing and the CLI polled it
 * forever (seen about one run in five on a 240 MiB tmpfs with four 40 MB private files). Here:
 * the build's `abort` resolves only once the thread has let the file go (its space is back);
 * an outcome that still does not fit is written at the next poll, which meanwhile meets the
 * full disk; the job's whole path, on a small tmpfs (helpers/small-disk.ts; skipped where
 * none can be mounted).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cannotWrite, isNoSpace } from '../src/errors/index.js';
import { errorInsight } from '../src/insights/index.js';
import { decodeResult, JOB_NO_SPACE_TEXT } from '../src/jobs/index.js';
import { Store } from '../src/store/index.js';
import { oneJob } from './helpers/one-job.js';
import { smallDisk, smallDiskUnavailable } from './helpers/small-disk.js';
import { manyEventsLog } from './helpers/small-log.js';

const SKIP = smallDiskUnavailable();
const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('a build whose writer thread met a full disk has its space back once abort resolves', {
  skip: SKIP,
  timeout: 60_000,
}, async () => {
  const disk = await smallDisk(8);
  try {
    const script = fileURLToPath(new URL('./helpers/stage-full-disk.ts', import.meta.url));
    // From the checkout, where `--import tsx` resolves.
    const root = fileURLToPath(new URL('..', import.meta.url));
    const run = await disk.shell(
      `cd "${root}" && "${process.execPath}" --import tsx "${script}" "${disk.dir}"`,
    );
    assert.equal(run.code, 0, run.stderr);
    const got = JSON.parse(run.stdout);
    assert.ok(got.noSpace, `the staging met the full disk: ${got.failure}`);
    assert.deepEqual(got.left, [], 'no staging file is left');
    // A removed file still open in the writer thread would keep its blocks.
    assert.ok(
      got.after >= got.before - 64 * 1024,
      `the space is back: ${got.after} of ${got.before} bytes free`,
    );
  } finally {
    await disk.close();
  }
});

test('a job whose disk-full outcome does not fit is written at the next poll, which meanwhile meets the full disk', {
  timeout: 20_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-unwritten-'));
  const store = await Store.open({ dataDir: dir });
  const statuses: string[] = [];
  // The disk is full: the runner met it (its index could not be written), and so does every
  // write of the job's outcome until it is freed.
  let full = true;
  const finish = store.jobs.finish.bind(store.jobs);
  store.jobs.finish = (...args) => {
    if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return finish(...args);
  };
  const runner = async () => {
    throw cannotWrite('the event index');
  };
  const { scheduler, row } = oneJob(store, { winevtx: runner }, (e) => statuses.push(e.status));
  try {
    while (scheduler.runningCount > 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(store.jobs.get(row.id)!.status, 'Processing', 'not even the Failed status fit');
    // The poll meets the full disk instead of reading Processing forever.
    let polled: unknown;
    try {
      scheduler.writeUnwritten(row.id);
    } catch (e) {
      polled = e;
    }
    assert.ok(isNoSpace(polled), `the poll meets the full disk: ${polled}`);
    full = false;
    scheduler.writeUnwritten(row.id);
    const done = store.jobs.get(row.id)!;
    assert.equal(done.status, 'Failed');
    assert.deepEqual(decodeResult(done, store.jobs.result(row.id)!, null), [errorInsight(JOB_NO_SPACE_TEXT)]);
    assert.deepEqual(statuses, ['Pending', 'Processing', 'Failed']);
    scheduler.writeUnwritten(row.id); // written once: nothing left to write
  } finally {
    await scheduler.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tae jobs parse exits 7 when the writer thread fills the disk, leaving no index file behind', {
  skip: SKIP,
  timeout: 120_000,
}, async () => {
  const disk = await smallDisk(64);
  try {
    // 12,000 events (24.5 MB): decoded on the pool, staged past the writer thread's start (8,192).
    const log = manyEventsLog(12_000);
    writeFileSync(disk.outside('many.evtx'), log);
    const token = (await disk.run(['tokens', 'create', '--data', join(disk.dir, 'data'), '--json'])).stdout;
    const auth = [
      '--data',
      join(disk.dir, 'data'),
      '--token',
      JSON.parse(token)[0].token,
      '--key',
      'full disk key: correct horse battery',
    ];
    const up = await disk.run(['files', 'upload', ...auth, '--json', join(disk.dir, 'many.evtx')]);
    assert.equal(up.code, 0, up.stderr);
    const id: string = JSON.parse(up.stdout)[0].file_id;
    writeFileSync(disk.outside('many.evtx'), ''); // its room goes to the filler
    const stored = () =>
      Object.fromEntries(
        readdirSync(disk.outside('data', 'files')).map((f) => [
          f,
          sha(readFileSync(disk.outside('data', 'files', f))),
        ]),
      );
    const before = stored();
    // Room for the first 8,192 events staged on the job's thread (about 17 MB), not for all.
    disk.fill(20 * MiB);
    const run = await disk.run(['jobs', 'parse', id, '--sigma', ...auth, '--json']);
    assert.equal(run.code, 7, run.stderr);
    assert.match(
      run.stderr,
      /^tae: job [\w-]+: cannot write to the data directory .*: no space left on the disk$/m,
    );
    assert.equal(JSON.parse(run.stdout).status, 'Failed');
    assert.deepEqual(JSON.parse(run.stdout).insights, [{ Error: { message: JOB_NO_SPACE_TEXT } }]);
    assert.deepEqual(readdirSync(disk.outside('data', 'indexes')), [], 'no index or staging file is left');
    assert.deepEqual(readdirSync(disk.outside('data', 'tmp')), [], 'no temporary file is left');
    assert.deepEqual(stored(), before, 'the uploaded file is intact');
  } finally {
    await disk.close();
  }
});
