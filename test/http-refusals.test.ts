/**
 * A refusal reaches the client whatever the client and however it sends its body. `tae serve`
 * (a child process, so client and server race as in use) refuses a 260 MiB upload part (over
 * the 250 MB per-file limit, found only while it streams), a 6 MiB JSON body (over 4 MiB) and
 * a 260 MiB upload with an unissued token (before reading it); fetch, node:http, curl and
 * Python `requests` send each with a Content-Length, chunked, and with `Expect: 100-continue`,
 * and each sees the refusal, not a reset. (Raw clients: http-refusals-raw; 408: -timeout.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeBody, zeroForm } from './helpers/big-body.js';
import { type Body, CLIENT_MODES, type Client, send, unavailable } from './helpers/body-clients.js';
import { type ServeChild, startServe } from './helpers/serve-child.js';

const MiB = 1024 ** 2;
const B = 'tae-refusals-boundary';
const FORM = { 'Content-Type': `multipart/form-data; boundary=${B}` };
const JSON_TYPE = { 'Content-Type': 'application/json' };
const TOO_LARGE_FILE = 'File too large: big.bin exceeds the 250 MB limit';

let dir = '';
let server: ServeChild;
const files = { upload: '', json: '' };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-refusals-'));
  files.upload = join(dir, 'upload.form');
  files.json = join(dir, 'lookup.json');
  await writeBody(files.upload, zeroForm(B, [['big.bin', 260 * MiB]]));
  await writeBody(files.json, ['{"search":"', 6 * MiB, '","module":"event_id"}']);
  server = await startServe(join(dir, 'data'));
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const SENT: Readonly<Record<Body['mode'], string>> = {
  length: 'with Content-Length',
  chunked: 'chunked',
  expect: 'with Expect: 100-continue',
};

const UNISSUED = { ...FORM, 'X-Service-Api-Token': '0b5c2f7e-3c1d-4d7a-9a51-6f2e8b1c4d3a' };

const KINDS = [
  ['413 of a 260 MiB upload part', 'upload', '/upload', FORM, 413, TOO_LARGE_FILE],
  ['413 of a 6 MiB JSON body', 'json', '/analysis/lookup', JSON_TYPE, 413, 'Payload too large'],
  ['401 of a 260 MiB upload with an unissued token', 'upload', '/upload', UNISSUED, 401, 'Unauthorized'],
] as const;

describe('fetch, node:http, curl and Python requests each see the refusal', () => {
  for (const [client, modes] of Object.entries(CLIENT_MODES) as [Client, readonly Body['mode'][]][]) {
    const skip = unavailable(client) ?? undefined;
    for (const mode of modes) {
      for (const [what, file, path, headers, status, text] of KINDS) {
        test(`${client} sees the ${what} sent ${SENT[mode]}`, { skip }, async () => {
          const seen = await send(client, { url: `${server.url}${path}`, file: files[file], headers, mode });
          assert.deepEqual(seen, { status, text, failure: null });
          server.alive();
        });
      }
    }
  }
});
