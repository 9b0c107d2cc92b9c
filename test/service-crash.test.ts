/**
 * Acceptance 4: a child process running the engine is killed with SIGKILL mid-upload and
 * mid-job; reopening the data directory loses no acknowledged upload (contents byte-exact,
 * private ones still decrypting), leaves no debris, and finishes every job: interrupted ones
 * are re-queued, and private ones resume when their owner polls with the key.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { AAD, deriveOwnerKey, open, tokenDigest } from '../src/crypto/index.js';
import { Engine, type JobStatusResponse } from '../src/service/index.js';
import { readContent, Store } from '../src/store/index.js';
import { childFileContent } from './helpers/engine-child.js';

const CHILD = join(import.meta.dirname, 'helpers', 'engine-child.ts');
const KEY = 'crash test key, do not lose';
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Line = Record<string, string | number>;

/** Runs the child until `killWhen` accepts a line (then SIGKILL); returns every line read. */
function runChild(
  dataDir: string,
  scenario: string,
  killWhen: (line: Line, all: Line[]) => boolean,
): Promise<Line[]> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, scenario, KEY], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Line[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child never reached the kill point; lines: ${JSON.stringify(lines)}`));
    }, 30_000);
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      lines.push(line);
      if (child.exitCode === null && child.signalCode === null && killWhen(line, lines)) {
        setTimeout(() => child.kill('SIGKILL'), 20);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') resolve(lines);
      else reject(new Error(`child exited by itself: code ${code}, signal ${signal}`));
    });
  });
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('killed mid-upload: every acknowledged file survives byte-exact, and the half-written one leaves nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-crash-up-'));
  dirs.push(dir);
  const lines = await runChild(dir, 'upload', (l) => l.uploading === 3);
  const token = String(lines.find((l) => l.token)!.token);
  const acked = lines.filter((l) => l.uploaded !== undefined);
  assert.equal(acked.length, 3, 'three uploads were acknowledged before the kill');

  const e = await Engine.open({ dataDir: dir });
  assert.equal(e.recovery.tempFilesRemoved, 1, 'the upload in flight left one temp file, now removed');
  const listed = (await e.listFiles({ token })).files.map((f) => f[0]);
  assert.deepEqual(
    listed,
    acked.filter((l) => l.visibility === 'private').map((l) => String(l.uploaded)),
    'the private uploads are listed, in order',
  );
  await e.close();

  // Read every acknowledged file back through the store, decrypting the private ones.
  const store = await Store.open({ dataDir: dir });
  try {
    const salt = store.tokens.get(tokenDigest(token))!.keySalt;
    const ownerKey = await deriveOwnerKey(KEY, salt);
    for (const l of acked) {
      const row = store.files.get(String(l.uploaded))!;
      assert.equal(row.visibility, l.visibility);
      const dataKey = row.wrappedKey === null ? null : open(ownerKey, row.wrappedKey, AAD.fileKey(row.id));
      const bytes = await readContent(store.blobs, row, dataKey);
      assert.equal(sha(bytes), sha(childFileContent(Number(l.i))), `upload ${l.i} is byte-exact`);
    }
    assert.deepEqual(
      readdirSync(join(dir, 'files')).sort(),
      acked.map((l) => String(l.uploaded)).sort(),
      'no orphan blobs',
    );
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
  } finally {
    store.close();
  }
});

test('killed mid-job: no job is lost or stuck; interrupted ones re-run, private ones once polled with the key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-crash-job-'));
  dirs.push(dir);
  const completed = new Set<string>();
  const lines = await runChild(dir, 'jobs', (l, all) => {
    if (l.is === 'Completed') completed.add(String(l.status));
    const created = all.filter((x) => x.created !== undefined).length;
    return created === 8 && completed.size >= 2 && l.is === 'Processing';
  });
  const token = String(lines.find((l) => l.token)!.token);
  const created = lines
    .filter((l) => l.created !== undefined)
    .map((l) => ({ id: String(l.created), visibility: l.visibility }));
  const processingAtKill = String(lines.filter((l) => l.is === 'Processing').at(-1)!.status);
  assert.ok(!completed.has(processingAtKill));

  const e = await Engine.open({ dataDir: dir });
  try {
    assert.equal(e.recovery.requeued, 1, 'the job Processing at the kill was re-queued');
    assert.ok(e.recovery.parked! >= 1, 'unfinished private jobs wait for their key');
    const listed = (await e.listJobs({ token })).jobs.map((j) => j[0]);
    assert.deepEqual(
      listed,
      created.map((c) => c.id),
      'every created job is still there, in order',
    );
    const owner = { token, encKey: KEY };
    const finals: JobStatusResponse[] = [];
    for (const c of created) {
      let s: JobStatusResponse | undefined;
      for (let i = 0; i < 600; i++) {
        s = await e.getJob({ job_id: c.id }, owner);
        if (s.status === 'Completed' || s.status === 'Failed') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      finals.push(s!);
    }
    assert.deepEqual(
      finals.map((s) => s.status),
      created.map(() => 'Completed'),
    );
    for (const s of finals) {
      const overview = s.insights![0] as { Metadata: { data: Record<string, string> } };
      assert.equal(overview.Metadata.data.records, '7');
    }
  } finally {
    await e.close();
  }
});
