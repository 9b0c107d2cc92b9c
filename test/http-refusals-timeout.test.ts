/**
 * The upload clock's 408 reaches a client that is still sending: fetch, curl and Python
 * `requests` send a 768 KiB upload at 256 KiB/s to a server whose clock runs out after 1 s
 * (`serve()` in this process, on a data directory); each sees the 408, not a reset, because the
 * server reads and drops what still comes instead of closing on unread bytes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type RunningServer, serve } from '../src/http/index.js';
import { Engine } from '../src/service/index.js';
import { writeBody, zeroForm } from './helpers/big-body.js';
import { type BodyMode, type Client, send, unavailable } from './helpers/body-clients.js';

const B = 'tae-refusals-timeout-boundary';
const FORM = { 'Content-Type': `multipart/form-data; boundary=${B}` };
const RATE = 256 * 1024;

let dir = '';
let file = '';
let engine: Engine;
let server: RunningServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-refusals-timeout-'));
  file = join(dir, 'slow.form');
  await writeBody(file, zeroForm(B, [['slow.bin', 3 * RATE]]));
  engine = await Engine.open({ dataDir: join(dir, 'data') });
  server = await serve({ engine, port: 0, limits: { uploadTimeoutMs: 1000 } });
});

after(async () => {
  await server?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Paced: curl in every mode, fetch and Python only chunked (see body-clients.ts).
const SLOW: readonly (readonly [Client, BodyMode])[] = [
  ['fetch', 'chunked'],
  ['curl', 'length'],
  ['curl', 'chunked'],
  ['python', 'chunked'],
];

for (const [client, mode] of SLOW) {
  test(`${client} sees the 408 of an upload still arriving ${mode === 'length' ? 'with Content-Length' : 'chunked'}`, {
    skip: unavailable(client) ?? undefined,
  }, async () => {
    const started = Date.now();
    const seen = await send(client, {
      url: `${server.url}/upload`,
      file,
      headers: FORM,
      mode,
      bytesPerSecond: RATE,
    });
    assert.deepEqual(seen, { status: 408, text: 'Upload timed out', failure: null });
    const ms = Date.now() - started;
    assert.ok(ms >= 900 && ms < 10_000, `answered after ${ms} ms`);
  });
}
