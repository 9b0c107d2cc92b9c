/**
 * The HTTP front's own answers over real HTTP (against `serve()` on a free loopback port):
 * Content-Type enforcement, malformed JSON, unknown routes, wrong methods, the Host check,
 * body size limits (413), the upload clock (408), and the configurable brand word in the
 * header names. Statuses and texts are those of README "Interface decisions".
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, serve } from '../src/http/index.js';
import { Engine } from '../src/service/index.js';
import { call } from './helpers/http-client.js';

const KEY = 'http transport key: correct horse';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function form(...files: [string, Uint8Array][]): FormData {
  const f = new FormData();
  for (const [name, bytes] of files) f.append('files', new Blob([bytes]), name);
  return f;
}

/** A raw request with full control of headers and body pacing. */
function raw(
  url: string,
  o: { method: string; path: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${o.path}`, { method: o.method, headers: o.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe('transport answers of the HTTP front', () => {
  let engine: Engine;
  let server: RunningServer;
  let base: string;
  before(async () => {
    engine = await Engine.open({ memory: true });
    server = await serve({
      engine,
      port: 0,
      limits: { jsonBytes: 1024, dataJsonBytes: 4096, uploadBytes: 64 * 1024, uploadTimeoutMs: 400 },
    });
    base = server.url;
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  const LOOKUP = { search: '4624', module: 'event_id' };

  test('POSTs other than upload need Content-Type application/json: 400 in the endpoint format', async () => {
    const text = await call(base, 'POST', '/analysis/lookup', {
      body: JSON.stringify(LOOKUP),
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.deepEqual(
      [text.status, text.type, text.text],
      [400, 'text/plain; charset=utf-8', 'Invalid request: Content-Type must be application/json'],
    );
    const json = await call(base, 'POST', '/analysis/yara/rules', { body: '{"rule_names":["x"]}' });
    assert.deepEqual(
      [json.status, json.type, json.text],
      [400, 'application/json', '{"error":"Invalid request: Content-Type must be application/json"}'],
    );
    const withCharset = await call(base, 'POST', '/analysis/lookup', {
      json: LOOKUP,
      headers: { 'Content-Type': 'Application/JSON; charset=utf-8' },
    });
    assert.equal(withCharset.status, 200);
  });

  test('malformed JSON, a non-object body and non-UTF-8 bytes are 400 Invalid request', async () => {
    const cases: [NonNullable<RequestInit['body']>, string][] = [
      ['{"search": ', 'malformed JSON body'],
      ['[1, 2]', 'the body must be a JSON object'],
      ['null', 'the body must be a JSON object'],
      [new Uint8Array([0x7b, 0xff, 0x7d]), 'the body is not UTF-8'],
    ];
    for (const [body, details] of cases) {
      const a = await call(base, 'POST', '/analysis/winevtx/parse', {
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      assert.deepEqual(
        [a.status, a.type, a.text],
        [400, 'application/json', JSON.stringify({ error: `Invalid request: ${details}` })],
      );
    }
  });

  test('unknown paths are 404 JSON; a known path with another method is 405 with Allow', async () => {
    for (const path of ['/', '/analysis', '/upload/', '/analysis/job/', '/analysis/job/a/b', '/nope?x=1']) {
      const a = await call(base, 'GET', path);
      assert.deepEqual([a.status, a.type, a.text], [404, 'application/json', '{"error":"Not found"}'], path);
    }
    const a = await call(base, 'GET', '/analysis/job/delete');
    assert.deepEqual([a.status, a.headers.get('allow'), a.text], [405, 'POST', 'Method not allowed']);
    const b = await call(base, 'DELETE', '/analysis/file/list');
    assert.deepEqual(
      [b.status, b.headers.get('allow'), b.type, b.text],
      [405, 'GET', 'application/json', '{"error":"Method not allowed"}'],
    );
    const c = await call(base, 'GET', '/analysis/upload');
    assert.deepEqual([c.status, c.headers.get('allow')], [405, 'POST']);
  });

  test('a job id in the path is percent-decoded and passed to the engine as sent', async () => {
    const a = await call(base, 'GET', '/analysis/job/not%20a%20uuid');
    assert.deepEqual([a.status, a.text], [404, 'Job not a uuid not found']);
    const b = await call(base, 'GET', '/analysis/job/%E0%A4%A');
    assert.deepEqual([b.status, b.text], [404, 'Job %E0%A4%A not found']);
  });

  test('a Host header other than a loopback name is 421 on a loopback server', async () => {
    const evil = await raw(base, {
      method: 'GET',
      path: '/analysis/job/list',
      headers: { Host: 'evil.example:80' },
    });
    assert.deepEqual([evil.status, evil.text], [421, '{"error":"Misdirected request"}']);
    const local = await raw(base, {
      method: 'GET',
      path: '/analysis/job/list',
      headers: { Host: `localhost:${server.port}` },
    });
    assert.equal(local.status, 401);
  });

  test('JSON bodies over the limit are 413: the file-job row, or Payload too large in the endpoint format', async () => {
    const big = { file_ids: [], run_sigma_rules: false, pad: 'x'.repeat(2000) };
    const parse = await call(base, 'POST', '/analysis/winevtx/parse', { json: big });
    assert.deepEqual(
      [parse.status, parse.type, parse.text],
      [413, 'application/json', '{"error":"Payload too large"}'],
    );
    const lookup = await call(base, 'POST', '/analysis/lookup', {
      json: { ...LOOKUP, pad: 'x'.repeat(2000) },
    });
    assert.deepEqual(
      [lookup.status, lookup.type, lookup.text],
      [413, 'text/plain; charset=utf-8', 'Payload too large'],
    );
    // The data endpoints have a larger allowance (Base64 test data).
    const data = await call(base, 'POST', '/analysis/yara/data', {
      json: {
        test_data: b64('x'.repeat(2000)),
        operation: 'run_rule',
        rule: b64('rule r { condition: true }'),
      },
    });
    assert.equal(data.status, 200, data.text);
    // Chunked, without Content-Length: counted while reading.
    const chunked = await call(base, 'POST', '/analysis/sigma/rules', {
      body: new Blob([JSON.stringify({ rule_names: ['x'.repeat(3000)] })]).stream(),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([chunked.status, chunked.text], [413, 'Payload too large']);
  });

  test('an upload over the request bound is 413; a non-multipart upload is 400', async () => {
    const big = await call(base, 'POST', '/upload', { body: form(['big.bin', new Uint8Array(100 * 1024)]) });
    assert.deepEqual(
      [big.status, big.type, big.text],
      [413, 'text/plain; charset=utf-8', 'Payload too large'],
    );
    const json = await call(base, 'POST', '/upload', { json: { files: [] } });
    assert.deepEqual(
      [json.status, json.text],
      [400, 'Failed to process multipart form: Content-Type must be multipart/form-data'],
    );
    const noBoundary = await call(base, 'POST', '/upload', {
      body: 'x',
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    assert.equal(noBoundary.status, 400);
    assert.match(noBoundary.text, /^Failed to process multipart form: /);
  });

  test('an upload whose body stops arriving is answered 408 when the upload clock runs out', async () => {
    const { port } = server;
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=XX\r\n' +
            'Content-Length: 10000\r\n\r\n--XX\r\nContent-Disposition: form-data; name="files"; filename="slow.bin"\r\n\r\nabc',
        );
      });
      let got = '';
      socket.on('data', (c) => {
        got += c.toString('utf8');
      });
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    const elapsed = Date.now() - started;
    assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/i);
    assert.ok(answer.endsWith('\r\n\r\nUpload timed out'), answer);
    assert.ok(elapsed >= 350 && elapsed < 5000, `answered after ${elapsed} ms`);
  });
});

describe('closing the server', () => {
  /** Starts a multipart upload, sends its first half, and returns a way to send the rest. */
  function halfUpload(url: string) {
    const body = Buffer.from(
      '--XX\r\nContent-Disposition: form-data; name="files"; filename="late.bin"\r\n\r\n' +
        'x'.repeat(1000) +
        '\r\n--XX--\r\n',
    );
    let answered: (a: { status: number; text: string } | Error) => void = () => {};
    const answer = new Promise<{ status: number; text: string } | Error>((r) => {
      answered = r;
    });
    const req = httpRequest(
      `${url}/upload`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'multipart/form-data; boundary=XX',
          'Content-Length': String(body.length),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => answered({ status: res.statusCode!, text }));
      },
    );
    req.on('error', (e) => answered(e));
    req.write(body.subarray(0, 500));
    return { answer, finish: () => req.end(body.subarray(500)) };
  }

  test('answers in flight finish within the grace; close resolves after them', async () => {
    const engine = await Engine.open({ memory: true });
    const server = await serve({ engine, port: 0 });
    try {
      const upload = halfUpload(server.url);
      await new Promise((r) => setTimeout(r, 50));
      const closed = server.close({ graceMs: 5000 });
      await assert.rejects(fetch(`${server.url}/analysis/job/list`), 'a new connection is refused');
      upload.finish();
      const answer = await upload.answer;
      assert.ok(!(answer instanceof Error), String(answer));
      assert.equal(answer.status, 200);
      assert.match(answer.text, /"late\.bin"/);
      await closed;
    } finally {
      await engine.close();
    }
  });

  test('a connection still open when the grace ends is cut', async () => {
    const engine = await Engine.open({ memory: true });
    const server = await serve({ engine, port: 0 });
    try {
      const upload = halfUpload(server.url);
      await new Promise((r) => setTimeout(r, 50));
      const started = Date.now();
      await server.close({ graceMs: 100 });
      assert.ok(Date.now() - started < 2000);
      assert.ok((await upload.answer) instanceof Error, 'the stalled request was cut');
    } finally {
      await engine.close();
    }
  });
});

describe('the brand word in the header names is configurable', () => {
  test('X-Acme-Api-Token is read, and messages naming the header use the brand', async () => {
    const engine = await Engine.open({ memory: true });
    const server = await serve({ engine, port: 0, brand: 'Acme' });
    try {
      const owner = { token: (await engine.createToken()).token, encKey: KEY };
      const listed = await call(server.url, 'GET', '/analysis/file/list', { auth: owner, brand: 'Acme' });
      assert.deepEqual([listed.status, listed.text], [200, '{"files":[]}']);
      const serviceWord = await call(server.url, 'GET', '/analysis/file/list', { auth: owner });
      assert.deepEqual([serviceWord.status, serviceWord.text], [401, '{"error":"Unauthorized"}']);
      const bad = await call(server.url, 'POST', '/upload', {
        auth: { token: 'abc', encKey: KEY },
        brand: 'Acme',
        body: form(['a', new Uint8Array(1)]),
      });
      assert.deepEqual([bad.status, bad.text], [400, 'X-Acme-Api-Token must be a valid UUID v4']);
    } finally {
      await server.close();
      await engine.close();
    }
  });

  test('a brand that cannot be part of a header name is refused at the door', async () => {
    const engine = await Engine.open({ memory: true });
    try {
      await assert.rejects(serve({ engine, brand: 'Ac me' }), /options\.brand must be/);
    } finally {
      await engine.close();
    }
  });
});
