/**
 * Acceptance 3: private data never reaches the disk in plaintext, and a wrong key never
 * yields data. A private EVTX whose computer name is a random marker, and a 3 MB private file
 * full of it, are uploaded and parsed by a private job whose result holds the marker; then no
 * file under the data directory contains the marker (UTF-8 or UTF-16LE), while the owner with
 * the key reads it back.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { AAD, newDataKey, openSealedStream, SegmentSealer } from '../src/crypto/index.js';
import { isTaeError } from '../src/errors/index.js';
import { type Auth, Engine, type JobStatusResponse } from '../src/service/index.js';
import { filesContaining, markerNeedles } from './helpers/marker-scan.js';
import { smallLogEvents } from './helpers/small-log.js';

const MARKER = `MARKER-${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'tae-enc-'));
let e: Engine;
let owner: Auth;
let other: Auth;
let evtxId: string;
let bigId: string;
let jobId: string;

const filesContainingMarker = () => filesContaining([dir], markerNeedles(MARKER));

async function settled(job_id: string, auth: Auth): Promise<JobStatusResponse> {
  for (let i = 0; i < 500; i++) {
    const s = await e.getJob({ job_id }, auth);
    if (s.status === 'Completed' || s.status === 'Failed') return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${job_id} did not finish`);
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    assert.ok(isTaeError(err));
    return err.status;
  }
}

before(async () => {
  e = await Engine.open({ dataDir: dir, durability: 'full' });
  owner = { token: (await e.createToken()).token, encKey: 'owner passphrase with spaces 42' };
  other = { token: (await e.createToken()).token, encKey: 'another passphrase, 0987654321' };
  const evtx = writeEvtx(smallLogEvents().map((ev) => ({ ...ev, computer: MARKER })));
  const big = Buffer.alloc(3 * 1024 * 1024 + 123, `${MARKER} `);
  const up = await e.upload(
    {
      files: [
        { name: 'case.evtx', data: evtx },
        { name: 'dump.bin', data: big },
      ],
    },
    owner,
  );
  [evtxId, bigId] = up.file_ids.map(([id]) => id) as [string, string];
  jobId = (await e.createParseJob({ file_ids: [evtxId], run_sigma_rules: false }, owner)).id;
});

after(async () => {
  await e.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the owner with the key reads the private job result, which holds the marker', async () => {
  const s = await settled(jobId, owner);
  assert.equal(s.status, 'Completed');
  assert.ok(JSON.stringify(s.insights).includes(MARKER));
});

test('while the engine runs, no file under the data directory contains the marker', () => {
  assert.ok(statSync(join(dir, 'files', bigId)).size > 3 * 1024 * 1024, 'the big file is stored');
  assert.deepEqual(filesContainingMarker(), []);
});

test('a wrong key gets 403 on job status and 400 on job creation; another token gets 404 and 400', async () => {
  const wrong = { ...owner, encKey: 'not the owner passphrase at all' };
  assert.equal(await status(e.getJob({ job_id: jobId }, wrong)), 403);
  assert.equal(await status(e.createParseJob({ file_ids: [evtxId], run_sigma_rules: false }, wrong)), 400);
  assert.equal(await status(e.getJob({ job_id: jobId }, other)), 404);
  assert.equal(await status(e.createParseJob({ file_ids: [bigId], run_sigma_rules: false }, other)), 400);
});

test('a tampered ciphertext fails the job with an Error insight, never garbage', async () => {
  const path = join(dir, 'files', bigId);
  const bytes = readFileSync(path);
  bytes[bytes.length - 100]! ^= 0x01;
  writeFileSync(path, bytes);
  const s = await settled(
    (await e.createParseJob({ file_ids: [bigId], run_sigma_rules: false }, owner)).id,
    owner,
  );
  assert.equal(s.status, 'Failed');
  assert.match(JSON.stringify(s.insights), /fails authentication/);
});

test('sealed file contents open only with their key and their file id', async () => {
  const key = newDataKey();
  const plain = randomBytes(2500);
  const sealer = new SegmentSealer(key, AAD.fileContent('a'), 1000);
  const sealed = Buffer.concat([sealer.header(), ...sealer.push(plain), sealer.finish()]);
  const from = async function* (b: Buffer) {
    for (let i = 0; i < b.length; i += 333) yield b.subarray(i, i + 333);
  };
  assert.deepEqual(await openSealedStream(key, AAD.fileContent('a'), plain.length, from(sealed)), plain);
  await assert.rejects(
    openSealedStream(newDataKey(), AAD.fileContent('a'), plain.length, from(sealed)),
    /fails authentication/,
  );
  await assert.rejects(
    openSealedStream(key, AAD.fileContent('b'), plain.length, from(sealed)),
    /fails authentication/,
  );
  await assert.rejects(
    openSealedStream(key, AAD.fileContent('a'), plain.length, from(sealed.subarray(0, 2000))),
    /truncated/,
  );
  // Dropping the last segment and claiming the shorter length fails: the new last segment is not flagged last.
  await assert.rejects(
    openSealedStream(key, AAD.fileContent('a'), 2000, from(sealed.subarray(0, 16 + 2032))),
    /fails authentication/,
  );
});

test('after close (WAL checkpointed into the database) the marker is still nowhere on disk', async () => {
  await e.close();
  assert.deepEqual(filesContainingMarker(), []);
  e = await Engine.open({ dataDir: dir });
  const s = await e.getJob({ job_id: jobId }, owner);
  assert.ok(JSON.stringify(s.insights).includes(MARKER), 'still readable with the key after reopening');
});
