/**
 * A rule whose bytes are not well-formed UTF-8 is no usable rule: the Sigma data endpoint
 * answers it as the YARA data endpoint and both file jobs do, 422 `Rule is required` (the
 * spec's "operation is run_rule without a usable rule"), in-process and over HTTP. Before,
 * the Sigma data endpoint decoded leniently and answered 200 with an in-band parser error.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, serve } from '../src/http/index.js';
import { ENDPOINTS, Engine, endpointError, errorResponse } from '../src/service/index.js';
import { runSigma } from '../src/sigma/index.js';
import { rejection } from './helpers/engine-test.js';
import { call } from './helpers/http-client.js';

const SIGMA = 'title: t\nlogsource: {product: windows}\ndetection:\n  s: {EventID: 1}\n  condition: s\n';
const YARA = 'rule r { condition: true }\n';
/** Bytes no strict decoder takes: stray high bytes, an overlong '/', an encoded surrogate, a cut sequence. */
const BAD = [
  [0xff, 0xfe, 0x00],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
].map((b) => Buffer.from(b));
const b64 = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString('base64');

const ENDPOINT_NAMES = ['sigmaData', 'yaraData', 'createSigmaFileJob', 'createYaraFileJob'] as const;
type Name = (typeof ENDPOINT_NAMES)[number];

describe('a rule that is not UTF-8 is 422 Rule is required at every rule-taking endpoint', () => {
  let engine: Engine;
  let server: RunningServer;
  let fileId: string;
  before(async () => {
    engine = await Engine.open({ memory: true });
    server = await serve({ engine, port: 0 });
    const up = await engine.upload({ files: [{ name: 'a.bin', data: new TextEncoder().encode('data') }] });
    fileId = up.file_ids[0]![0]!;
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  const body = (name: Name, rule: string) =>
    name === 'sigmaData' || name === 'yaraData'
      ? { test_data: b64(name === 'sigmaData' ? '{"EventID": 1}' : 'bytes'), operation: 'run_rule', rule }
      : { file_ids: [fileId], operation: 'run_rule', rule };
  const ruleOf = (name: Name) => (name === 'sigmaData' || name === 'createSigmaFileJob' ? SIGMA : YARA);
  // The Engine's methods take their endpoint's request type; the bodies here are built per name.
  const invoke = (name: Name, request: object) => (engine[name] as (r: object) => Promise<unknown>)(request);

  test('through the Engine: the rule with a bad sequence appended is refused, the same rule without it runs', async () => {
    for (const name of ENDPOINT_NAMES) {
      await invoke(name, body(name, b64(ruleOf(name))));
      for (const bad of BAD) {
        const e = await rejection(invoke(name, body(name, b64(ruleOf(name), bad))));
        assert.deepEqual(
          [e.status, e.code, e.message, e.bodyFormat],
          [422, 'VALIDATION_FAILED', 'Rule is required', ENDPOINTS[name].bodyFormat],
          `${name} ${bad.toString('hex')}`,
        );
      }
    }
  });

  test('over HTTP: the answer is the table row byte for byte, and the sound rule is a 200', async () => {
    for (const name of ENDPOINT_NAMES) {
      const { path } = ENDPOINTS[name];
      const good = await call(server.url, 'POST', path, { json: body(name, b64(ruleOf(name))) });
      assert.equal(good.status, 200, `${name}: ${good.text}`);
      const want = errorResponse(endpointError(`${name}.ruleRequired`));
      for (const bad of BAD) {
        const got = await call(server.url, 'POST', path, { json: body(name, b64(ruleOf(name), bad)) });
        assert.deepEqual(
          { status: got.status, type: got.type, text: got.text },
          { status: want.status, type: want.contentType, text: want.body },
          `${name} ${bad.toString('hex')}`,
        );
      }
    }
  });

  test('runSigma, the library door, refuses it alike; a BOM before a sound rule is not part of it', async () => {
    const test_data = b64('{"EventID": 1}');
    await assert.rejects(
      runSigma({ test_data, operation: 'run_rule', rule: b64(SIGMA, BAD[0]!) }),
      (e: Error & { status?: number }) => e.status === 422 && e.message === 'Rule is required',
    );
    const bom = await runSigma({
      test_data,
      operation: 'run_rule',
      rule: b64(Buffer.from([0xef, 0xbb, 0xbf]), SIGMA),
    });
    assert.deepEqual(
      bom.results,
      (await runSigma({ test_data, operation: 'run_rule', rule: b64(SIGMA) })).results,
    );
  });
});
