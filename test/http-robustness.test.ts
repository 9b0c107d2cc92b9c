/**
 * Nothing a client sends takes `tae serve` down: every rejected, truncated, malformed or
 * abandoned upload is answered (or dropped) and the server keeps serving every endpoint, logs
 * a client abort as one line without a stack, and keeps its memory flat over many of them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../src/service/index.js';
import { multipart, type RawAnswer, type RawRequest, rawRequest } from './helpers/raw-http.js';
import { memoryKiB, type ServeChild, startServe } from './helpers/serve-child.js';
import { smallLog } from './helpers/small-log.js';

const B = 'tae-robustness-boundary';
const FORM = { 'Content-Type': `multipart/form-data; boundary=${B}` };
const small = new Uint8Array(70 * 1024).fill(7);
const big = new Uint8Array(3 * 1024 * 1024).fill(9);
const tiny = new Uint8Array(10).fill(5);
const file = (data: Uint8Array, filename = 'x.evtx') => multipart(B, [{ filename, data }]);

let server: ServeChild;
let dir = '';
let token = '';
const KEY = 'robustness key: correct horse';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-robust-'));
  const engine = await Engine.open({ dataDir: dir });
  token = (await engine.createToken()).token;
  await engine.close();
  server = await startServe(dir);
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const alive = () => server.alive();
const send = (r: Omit<RawRequest, 'port'>): Promise<RawAnswer> => rawRequest({ port: server.port, ...r });

type Case = readonly [name: string, request: Omit<RawRequest, 'port'>, status: number | null];

/** Each rejected or broken upload, with the status it must get (null: no answer is due). */
function rejectedUploads(): Case[] {
  const bad = { ...FORM, 'X-Service-Api-Token': 'abc' };
  const unissued = { ...FORM, 'X-Service-Api-Token': '0b5c2f7e-3c1d-4d7a-9a51-6f2e8b1c4d3a' };
  const wrongKey = { ...FORM, 'X-Service-Api-Token': token, 'X-Service-Api-Enc-Key': 'wrong key' };
  const noKey = { ...FORM, 'X-Service-Api-Token': token };
  const otherBoundary = { 'Content-Type': 'multipart/form-data; boundary=other' };
  return [
    ['a malformed token, 70 KB', { headers: bad, body: file(small) }, 400],
    ['a malformed token, 3 MB', { headers: bad, body: file(big) }, 400],
    ['an unissued token, 3 MB', { headers: unissued, body: file(big) }, 401],
    ['a wrong key, 3 MB', { headers: wrongKey, body: file(big) }, 400],
    ['a token without a key, 3 MB', { headers: noKey, body: file(big) }, 400],
    // Past what 100 files of 250 MB and their form can take: refused before a byte is read.
    ['a declared 30 GiB body', { headers: FORM, body: file(small), contentLength: 30 * 1024 ** 3 }, 413],
    [
      'no closing boundary',
      { headers: FORM, body: multipart(B, [{ filename: 'a', data: small }], false) },
      400,
    ],
    [
      'no closing boundary, 10 bytes',
      { headers: FORM, body: multipart(B, [{ filename: 't', data: tiny }], false) },
      400,
    ],
    ['a body ending mid-part', { headers: FORM, body: file(small).subarray(0, 40_000) }, 400],
    ['an empty file name', { headers: FORM, body: file(small, '') }, 400],
    ['no boundary', { headers: { 'Content-Type': 'multipart/form-data' }, body: file(small) }, 400],
    ['garbage with a boundary', { headers: FORM, body: Buffer.from('garbage'.repeat(9000)) }, 400],
    ['a wrong boundary', { headers: otherBoundary, body: file(small) }, 400],
    ['a socket destroyed mid-part', { headers: FORM, body: file(big), cutAt: 50_000 }, null],
    ['a client gone mid-upload', { headers: FORM, body: file(big), cutAt: 1024 ** 2, cutAfterMs: 300 }, null],
  ];
}

async function answersEveryEndpoint(): Promise<void> {
  const base = server.url;
  const form = new FormData();
  form.append('files', new Blob([smallLog()]), 'after.evtx');
  const up = await fetch(`${base}/upload`, { method: 'POST', body: form });
  assert.equal(up.status, 200, 'a valid upload');
  const fileId = ((await up.json()) as { file_ids: [string, string][] }).file_ids[0]![0];
  const json = { 'Content-Type': 'application/json' };
  const job = await fetch(`${base}/analysis/winevtx/parse`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ file_ids: [fileId], run_sigma_rules: false }),
  });
  assert.equal(job.status, 200, 'a parse job');
  const jobId = ((await job.json()) as { id: string }).id;
  const status = await fetch(`${base}/analysis/job/${jobId}`);
  assert.equal(status.status, 200, 'a job status');
  const lookup = await fetch(`${base}/analysis/lookup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ search: '4624', module: 'event_id', show: 1 }),
  });
  assert.equal(lookup.status, 200, 'a lookup');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const data = await fetch(`${base}/analysis/yara/data`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      test_data: b64('hello marker'),
      operation: 'run_rule',
      rule: b64('rule m { strings: $a = "marker" condition: $a }'),
    }),
  });
  assert.equal(data.status, 200, 'a data request');
}

test('every rejected or broken upload is answered or dropped, and tae serve keeps serving', async () => {
  // The token's first key becomes its owner key; later uploads with another key are refused.
  const first = await send({
    headers: { ...FORM, 'X-Service-Api-Token': token, 'X-Service-Api-Enc-Key': KEY },
    body: file(small),
  });
  assert.equal(first.status, 200, first.body);
  for (const [name, request, status] of rejectedUploads()) {
    const times = name === 'an empty file name' ? 10 : 1;
    for (let i = 0; i < times; i++) {
      const got = await send(request);
      assert.equal(got.status, status, `${name}: ${got.body}`);
      if (status !== null) {
        // A body small enough is drained after the early answer, so the connection stays
        // usable; a body too large to drain is not read, and the answer says so.
        const drained = request.contentLength === undefined;
        assert.equal(got.headers.connection, drained ? 'keep-alive' : 'close', name);
      }
    }
    await new Promise((r) => setTimeout(r, 50)); // let a late stream error surface
    alive();
  }
  await answersEveryEndpoint();
  alive();
  const stderr = server.stderr();
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack on stderr');
  assert.doesNotMatch(stderr, /^tae serve: error /m, 'none of these is an internal error');
  assert.match(stderr, /^tae serve: client closed the connection mid-request: POST \/upload$/m);
});

const rssKiB = (): number => memoryKiB(server.child.pid!, 'VmRSS');

test('200 rejected uploads in a row leave the server memory flat', {
  skip: !existsSync('/proc/self/status'),
}, async (t) => {
  const cases = rejectedUploads();
  // RSS after every 20 requests: the collector's sawtooth makes one reading noisy (±30 MiB), so
  // the median of a round's readings is compared with the previous round's.
  const round = async (n: number): Promise<number> => {
    const readings: number[] = [];
    for (let i = 0; i < n; i++) {
      const [name, request, status] = cases[i % cases.length]!;
      const got = await send(request);
      assert.equal(got.status, status, name);
      if ((i + 1) % 20 === 0) readings.push(rssKiB());
    }
    readings.sort((a, b) => a - b);
    return (readings[(readings.length - 1) >> 1]! + readings[readings.length >> 1]!) / 2;
  };
  // Warm-up as long as the measured loop: code paths compiled, buffers pooled and V8's heap grown
  // to its working size, so what is measured is what 200 more requests keep.
  const before = await round(200);
  const started = Date.now();
  const after = await round(200);
  const seconds = (Date.now() - started) / 1000;
  const growthMiB = (after - before) / 1024;
  t.diagnostic(
    `RSS median ${(before / 1024).toFixed(1)} MiB, then ${(after / 1024).toFixed(1)} MiB over 200 more in ${seconds} s`,
  );
  alive();
  assert.ok(seconds < 120, `200 requests took ${seconds} s`);
  assert.ok(growthMiB < 20, `RSS grew ${growthMiB.toFixed(1)} MiB over 200 rejected uploads`);
  await answersEveryEndpoint();
});
