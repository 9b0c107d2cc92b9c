/**
 * Refusals as the plainest clients meet them (over `node:net`, against a real `tae serve` in a
 * child process). A client that writes its whole body before it reads (as Python's
 * http.client does) has every byte of a refused body taken, so no write fails and it reads the
 * 413: the server reads and drops the rest rather than closing on unread bytes. A request
 * refused before its body is read gets no 100 Continue, and the connection is closed rather
 * than kept waiting for a body its client will not send.
 */
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeBody, zeroForm } from './helpers/big-body.js';
import { send } from './helpers/body-clients.js';
import { chunked, head, headOnly, sendWholeBody } from './helpers/raw-body.js';
import { parse } from './helpers/raw-http.js';
import { type ServeChild, startServe } from './helpers/serve-child.js';

const MiB = 1024 ** 2;
const B = 'tae-refusals-raw-boundary';
const FORM = { 'Content-Type': `multipart/form-data; boundary=${B}` };
const JSON_TYPE = { 'Content-Type': 'application/json' };

let dir = '';
let server: ServeChild;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-refusals-raw-'));
  server = await startServe(join(dir, 'data'));
});

after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a client that writes its whole body before it reads the answer', () => {
  test('gets the 413 of a 260 MiB upload part, every byte taken', async () => {
    const file = join(dir, 'upload.form');
    await writeBody(file, zeroForm(B, [['big.bin', 260 * MiB]]));
    const length = String(statSync(file).size);
    const sent = await sendWholeBody(
      server.port,
      head('POST', '/upload', { ...FORM, 'Content-Length': length }),
      createReadStream(file, { highWaterMark: MiB }),
    );
    assert.equal(sent.writeError, null, 'the server read the rest of the refused body');
    assert.ok(sent.answer !== 'partial');
    assert.deepEqual(
      [sent.answer.status, sent.answer.body],
      [413, 'File too large: big.bin exceeds the 250 MB limit'],
    );
  });

  test('gets the 413 of a 64 MiB chunked JSON body, every byte taken', async () => {
    const chunks = function* () {
      yield Buffer.from('{"search":"');
      for (let i = 0; i < 64; i++) yield Buffer.alloc(MiB, 0x61);
      yield Buffer.from('"}');
    };
    const requestHead = head('POST', '/analysis/lookup', { ...JSON_TYPE, 'Transfer-Encoding': 'chunked' });
    const sent = await sendWholeBody(server.port, requestHead, chunked(chunks()));
    assert.equal(sent.writeError, null, 'the server read the rest of the refused body');
    assert.ok(sent.answer !== 'partial');
    assert.deepEqual([sent.answer.status, sent.answer.body], [413, 'Payload too large']);
  });
});

describe('Expect: 100-continue', () => {
  const refusedBeforeReading = [
    ['an upload declaring 999999999999 bytes', '/upload', FORM, 999_999_999_999, 413],
    ['a JSON body declaring 999999999999 bytes', '/analysis/lookup', JSON_TYPE, 999_999_999_999, 413],
    ['an upload with a malformed token', '/upload', { ...FORM, 'X-Service-Api-Token': 'abc' }, 10 * MiB, 400],
    [
      'an upload with an unissued token',
      '/upload',
      { ...FORM, 'X-Service-Api-Token': '0b5c2f7e-3c1d-4d7a-9a51-6f2e8b1c4d3a' },
      10 * MiB,
      401,
    ],
  ] as const;
  for (const [what, path, headers, length, status] of refusedBeforeReading) {
    test(`${what} is answered ${status} without 100 Continue, and the connection closes`, async () => {
      const requestHead = head('POST', path, {
        ...headers,
        Expect: '100-continue',
        'Content-Length': String(length),
      });
      const { text, closedAfterMs } = await headOnly(server.port, requestHead);
      assert.ok(text.startsWith(`HTTP/1.1 ${status} `), text);
      assert.doesNotMatch(text, /100 Continue/);
      assert.match(text, /\r\nConnection: close\r\n/i);
      assert.notEqual(parse(Buffer.from(text, 'latin1')), 'partial', 'the whole answer arrived');
      assert.ok(closedAfterMs !== null && closedAfterMs < 5_000, `closed after ${closedAfterMs} ms`);
    });
  }

  test('an upload the server reads gets its 100 Continue, then 200', async () => {
    const small = join(dir, 'small.form');
    await writeBody(small, zeroForm(B, [['small.bin', 1000]]));
    const seen = await send('node:http', {
      url: `${server.url}/upload`,
      file: small,
      headers: FORM,
      mode: 'expect',
    });
    assert.equal(seen.status, 200, seen.text || String(seen.failure));
    assert.match(seen.text, /"small\.bin"/);
  });
});
