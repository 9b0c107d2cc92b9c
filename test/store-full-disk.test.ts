/**
 * A full disk under a real `tae serve` (its data directory on a small tmpfs, see
 * helpers/small-disk.ts): an upload past the space, every endpoint that writes with not a
 * byte left, and a parse job whose event index does not fit each answer the 507 row of their
 * endpoint or fail the job with the disk-full insight, never a 500; nothing partial is kept,
 * earlier files stay intact, and once space is freed everything works again. Skipped where no
 * tmpfs can be mounted (no root, no user namespaces).
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import {
  type Auth,
  ENDPOINTS,
  ERROR_ROWS,
  type ErrorRowId,
  endpointError,
  errorResponse,
  isErrorRowId,
} from '../src/service/index.js';
import { type Answer, call } from './helpers/http-client.js';
import { listening } from './helpers/serve-child.js';
import { type SmallDisk, smallDisk, smallDiskUnavailable } from './helpers/small-disk.js';
import { manyEventsLog, smallLog } from './helpers/small-log.js';

const SKIP = smallDiskUnavailable();
const KEY = 'full disk key: correct horse battery';
/** The interface's text for a full disk (README "Interface decisions"). */
const NO_SPACE = "Insufficient storage: no space left on the data directory's disk";
const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

const inputs = mkdtempSync(join(tmpdir(), 'tae-full-disk-inputs-'));
const SMALL = join(inputs, 'small.evtx');
after(() => rmSync(inputs, { recursive: true, force: true }));

/** One request: JSON to a path, or files as a multipart upload. */
type Req = (f: Fixture) => Promise<Answer>;
interface Fixture {
  url: string;
  owner: Auth;
  /** A private job a restart left Pending, waiting for its owner's key. */
  parked: string;
  /** The private file that job reads. */
  parkedFile: string;
  /** A public file uploaded before the disk filled. */
  kept: { id: string; sha: string };
}

const post =
  (path: string, json: unknown, auth: Auth = {}): Req =>
  (f) =>
    call(f.url, 'POST', path, { auth, json });
const owned =
  (path: string, json: (f: Fixture) => unknown): Req =>
  (f) =>
    call(f.url, 'POST', path, { auth: f.owner, json: json(f) });

async function upload(f: Fixture, files: readonly [string, Uint8Array][], auth: Auth = {}): Promise<Answer> {
  const form = new FormData();
  for (const [name, bytes] of files) form.append('files', new Blob([bytes]), name);
  return call(f.url, 'POST', '/upload', { auth, body: form });
}

/** A request for every NO_SPACE row: a write with not a byte left. */
const SCENARIOS: Partial<Record<ErrorRowId, Req>> = {
  'upload.noSpace': (f) => upload(f, [['one.bin', new Uint8Array(1)]]),
  'createParseJob.noSpace': (f) =>
    post('/analysis/winevtx/parse', { file_ids: [f.kept.id], run_sigma_rules: false })(f),
  'createSigmaFileJob.noSpace': (f) =>
    post('/analysis/sigma/file', { file_ids: [f.kept.id], operation: 'run_community_rules' })(f),
  'createYaraFileJob.noSpace': (f) =>
    post('/analysis/yara/file', { file_ids: [f.kept.id], operation: 'run_community_rules' })(f),
  // The poll with the key re-arms the parked job: a write.
  'getJob.noSpace': (f) => call(f.url, 'GET', `/analysis/job/${f.parked}`, { auth: f.owner }),
  'cancelJob.noSpace': owned('/analysis/job/cancel', (f) => ({ job_id: f.parked })),
  'deleteJobs.noSpace': owned('/analysis/job/delete', (f) => ({ ids: [f.parked] })),
  'deleteFiles.noSpace': owned('/analysis/file/delete', (f) => ({ ids: [f.parkedFile] })),
  // The community rules' library is first opened (and indexed) now.
  'sigmaRules.noSpace': post('/analysis/sigma/rules', {
    rule_names: ['create_remote_thread_win_lsass_target'],
  }),
  'yaraRules.noSpace': post('/analysis/yara/rules', { rule_names: ['x'] }),
  'sigmaData.noSpace': post('/analysis/sigma/data', {
    test_data: b64('{"EventID": 1}'),
    operation: 'run_community_rules',
  }),
  'yaraData.noSpace': post('/analysis/yara/data', {
    test_data: b64('bytes'),
    operation: 'run_community_rules',
  }),
};

async function startServer(
  disk: SmallDisk,
  data: string,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = disk.tae(['serve', '--data', data, '--port', '0']);
  return { child, ...(await listening(child)) };
}

/** The ids of the files the owner's listing shows, in order. */
async function ownerFileIds(f: Fixture): Promise<string[]> {
  const listed = JSON.parse((await call(f.url, 'GET', '/analysis/file/list', { auth: f.owner })).text);
  return listed.files.map((r: string[]) => r[0]);
}

async function settled(
  f: Fixture,
  id: string,
  auth: Auth = {},
): Promise<{ status: string; insights?: unknown[] }> {
  for (let i = 0; i < 600; i++) {
    const job = JSON.parse((await call(f.url, 'GET', `/analysis/job/${id}`, { auth })).text);
    if (job.status === 'Completed' || job.status === 'Failed') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never settled`);
}

describe('tae serve with its data directory on a full disk', { skip: SKIP }, () => {
  let disk: SmallDisk;
  let server: Awaited<ReturnType<typeof startServer>>;
  let data: string;
  const f = {} as Fixture;
  const blobs = () => readdirSync(disk.outside('data', 'files')).sort();

  before(async () => {
    writeFileSync(SMALL, smallLog());
    disk = await smallDisk(16);
    data = join(disk.dir, 'data');
    const json = async (args: string[]) => {
      const r = await disk.run([...args, '--data', data, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout)[0];
    };
    f.owner = { token: (await json(['tokens', 'create'])).token, encKey: KEY };
    const auth = ['--token', f.owner.token!, '--key', KEY];
    f.parkedFile = (await json(['files', 'upload', SMALL, ...auth])).file_id;
    // Queued, then the command closes its engine: the job waits, Pending, for its owner's key.
    const queued = await disk.run(['jobs', 'parse', f.parkedFile, '--no-wait', '--data', data, ...auth]);
    assert.equal(queued.code, 0, queued.stderr);
    f.parked = /\(([0-9a-f-]{36})\): queued/.exec(queued.stdout)![1]!;
    server = await startServer(disk, data);
    f.url = server.url;
    const kept = randomBytes(256 * 1024);
    const up = await upload(f, [['kept.bin', kept]]);
    assert.equal(up.status, 200, up.text);
    f.kept = { id: JSON.parse(up.text).file_ids[0][0], sha: sha(kept) };
  });
  afterEach(() => disk.unfill()); // a failed test leaves the next one room
  after(async () => {
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
    await disk?.close();
  });

  test('an upload past the space left is 507 and keeps none of its files', async () => {
    disk.fill(2 * MiB);
    const before = blobs();
    const got = await upload(
      f,
      [
        ['fits.bin', randomBytes(64 * 1024)],
        ['too-big.bin', randomBytes(3 * MiB)],
      ],
      f.owner,
    );
    assert.deepEqual(got, {
      ...got,
      status: 507,
      type: 'text/plain; charset=utf-8',
      text: NO_SPACE,
    });
    // The operator hears of the full disk, and of no internal error.
    assert.match(
      server.stderr(),
      /^tae serve: no space left on the disk of the data directory \S+: 1 request\(s\) answered 507, the last POST \/upload; free space \(no restart needed\)\n$/,
    );
    assert.deepEqual(blobs(), before, 'no blob of the refused upload');
    assert.deepEqual(readdirSync(disk.outside('data', 'tmp')), [], 'no partial upload');
    assert.deepEqual(await ownerFileIds(f), [f.parkedFile]);
    assert.equal(sha(readFileSync(disk.outside('data', 'files', f.kept.id))), f.kept.sha);
  });

  test('with not a byte left, every endpoint that writes answers its 507 row and changes nothing', async () => {
    // A delete empties the write-ahead log, so the next write has to grow a file.
    const spare = JSON.parse((await upload(f, [['spare.bin', randomBytes(1024)]], f.owner)).text)
      .file_ids[0][0];
    assert.equal((await owned('/analysis/file/delete', () => ({ ids: [spare] }))(f)).status, 200);
    disk.fill(0);
    const rows = Object.keys(ERROR_ROWS)
      .filter(isErrorRowId)
      .filter((id) => ERROR_ROWS[id]!.code === 'NO_SPACE');
    assert.ok(rows.length >= 12, `only ${rows.length} NO_SPACE rows`);
    for (const id of rows) {
      const scenario = SCENARIOS[id];
      assert.ok(scenario, `no scenario provokes ${id}`);
      const want = errorResponse(endpointError(id));
      const got = await scenario(f);
      assert.deepEqual(
        { status: got.status, type: got.type, text: got.text },
        { status: 507, type: want.contentType, text: want.body },
        `${id} (${ENDPOINTS[ERROR_ROWS[id]!.endpoint].bodyFormat})`,
      );
    }
    // A restart on the full disk: the server comes up and answers.
    server.child.kill('SIGTERM');
    assert.equal((await once(server.child, 'exit'))[0], 0, server.stderr());
    server = await startServer(disk, data);
    f.url = server.url;
    disk.unfill();
    const jobs = JSON.parse((await call(f.url, 'GET', '/analysis/job/list', { auth: f.owner })).text);
    assert.deepEqual(
      jobs.jobs.map((j: string[]) => [j[0], j[2]]),
      [[f.parked, 'Pending']],
    );
    assert.deepEqual(await ownerFileIds(f), [f.parkedFile]);
    assert.equal(sha(readFileSync(disk.outside('data', 'files', f.kept.id))), f.kept.sha);
  });

  test('a parse job whose event index does not fit fails saying the disk is full; freed, all works again', async () => {
    const log = manyEventsLog(1000);
    const up = await upload(f, [['many.evtx', log]]);
    assert.equal(up.status, 200, up.text);
    const evtx = JSON.parse(up.text).file_ids[0][0];
    disk.fill(256 * 1024);
    const parse = post('/analysis/winevtx/parse', { file_ids: [evtx], run_sigma_rules: false });
    const failed = await settled(f, JSON.parse((await parse(f)).text).id);
    assert.deepEqual(failed, {
      ...failed,
      status: 'Failed',
      insights: [{ Error: { message: `${NO_SPACE} while processing the job` } }],
    });
    assert.deepEqual(readdirSync(disk.outside('data', 'indexes')), [], 'the failed build left no file');
    disk.unfill();

    const again = await settled(f, JSON.parse((await parse(f)).text).id);
    assert.equal(again.status, 'Completed');
    assert.equal(
      (await settled(f, f.parked, f.owner)).status,
      'Completed',
      'the parked job resumes with its key',
    );
    const rules = await post('/analysis/sigma/rules', {
      rule_names: ['create_remote_thread_win_lsass_target'],
    })(f);
    assert.equal(rules.status, 200, 'the rule library, whose first opening failed, opens');
    assert.equal((await upload(f, [['after.bin', randomBytes(1024)]])).status, 200);
    assert.equal(server.stderr(), '', 'no internal error was logged');
  });
});
