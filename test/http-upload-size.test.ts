/**
 * An upload is bounded by the documented limits only (250 MB per file, 100 files, 30 s), not
 * by the size of the whole request: one request carrying files of 240 MiB and 50 MiB is stored
 * whole by a real `tae serve`, and, since each part streams to disk (sealed segment by segment:
 * a private upload), the server's peak memory grows by far less than its first file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../src/service/index.js';
import { writeBody, zeroForm } from './helpers/big-body.js';
import { headersOf } from './helpers/http-client.js';
import { memoryKiB, type ServeChild, startServe } from './helpers/serve-child.js';

const MiB = 1024 ** 2;
const B = 'tae-upload-size-boundary';
const FORM = { 'Content-Type': `multipart/form-data; boundary=${B}` };
const KEY = 'upload size key: correct horse';

let dir = '';
let server: ServeChild;
let auth: Record<string, string> = {};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-upload-size-'));
  const engine = await Engine.open({ dataDir: join(dir, 'data') });
  auth = headersOf({ token: (await engine.createToken()).token, encKey: KEY });
  await engine.close();
  server = await startServe(join(dir, 'data'));
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const upload = async (file: string) => {
  const res = await fetch(`${server.url}/upload`, {
    method: 'POST',
    headers: { ...auth, ...FORM },
    body: await openAsBlob(file),
  });
  return { status: res.status, text: await res.text() };
};

test('one upload of a 240 MiB and a 50 MiB file is stored whole, in bounded memory', {
  skip: existsSync('/proc/self/status') ? undefined : 'reads the server memory from /proc',
}, async (t) => {
  // A first private upload derives the owner key and warms the code paths up.
  const small = join(dir, 'small.form');
  await writeBody(small, zeroForm(B, [['warm-up.bin', 64 * 1024]]));
  assert.equal((await upload(small)).status, 200);
  const form = join(dir, 'two.form');
  const length = await writeBody(
    form,
    zeroForm(B, [
      ['first.bin', 240 * MiB],
      ['second.bin', 50 * MiB],
    ]),
  );
  const peakBefore = memoryKiB(server.child.pid!, 'VmHWM');
  const started = Date.now();
  const answer = await upload(form);
  const seconds = (Date.now() - started) / 1000;
  const peakAfter = memoryKiB(server.child.pid!, 'VmHWM');
  assert.equal(answer.status, 200, answer.text);
  const { file_ids: ids } = JSON.parse(answer.text) as { file_ids: [string, string][] };
  assert.deepEqual(
    ids.map(([, name]) => name),
    ['first.bin', 'second.bin'],
  );
  const listed = await fetch(`${server.url}/analysis/file/list`, { headers: auth });
  const { files } = (await listed.json()) as { files: string[][] };
  assert.deepEqual(files.map((f) => f[1]).sort(), ['first.bin', 'second.bin', 'warm-up.bin']);
  const grewMiB = (peakAfter - peakBefore) / 1024;
  t.diagnostic(
    `${(length / MiB).toFixed(1)} MiB request in ${seconds} s; server peak RSS ` +
      `${(peakBefore / 1024).toFixed(1)} MiB before, ${(peakAfter / 1024).toFixed(1)} MiB after`,
  );
  assert.ok(grewMiB < 128, `the server's peak RSS grew ${grewMiB.toFixed(1)} MiB`);
  server.alive();
});
