/**
 * Issue 13, defect 5: a wrong encryption key is told apart from a missing one. Through the
 * real Engine: job status, search, cancel and the three job-creation endpoints each answer a
 * missing key and a wrong (or malformed) key with different rows carrying `context.key`;
 * job creation answers with 400 (the spec lists no 403 for it). Over HTTP, search's 403 body
 * stays byte-exact (`Encryption key required`) and the header `X-<Brand>-Api-Enc-Key-Error`
 * says `missing`, `invalid` or `wrong`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serve } from '../src/http/index.js';
import { type Auth, Engine } from '../src/service/index.js';
import { rejection, settle } from './helpers/engine-test.js';
import { call } from './helpers/http-client.js';
import { smallLog } from './helpers/small-log.js';

const KEY = 'owner key: correct horse battery';
const WRONG = 'a well-formed key that is not the owner key';

async function completed(e: Engine, id: string, auth: Auth): Promise<void> {
  assert.equal((await settle(e, id, auth)).status, 'Completed');
}

describe('wrong key versus missing key', () => {
  let e: Engine;
  let owner: Auth;
  let fileId: string;
  let jobId: string;
  before(async () => {
    e = await Engine.open({ memory: true });
    owner = { token: (await e.createToken()).token, encKey: KEY };
    fileId = (await e.upload({ files: [{ name: 'a.evtx', data: smallLog() }] }, owner)).file_ids[0]![0];
    jobId = (await e.createParseJob({ file_ids: [fileId], run_sigma_rules: false }, owner)).id;
    await completed(e, jobId, owner);
  });
  after(() => e.close());

  const noKey = () => ({ token: owner.token! });
  const wrongKey = () => ({ token: owner.token!, encKey: WRONG });
  const badKey = () => ({ token: owner.token!, encKey: 'short' });

  test('job status: 403 "Encryption key required" without a key, 403 naming the invalid key header with a wrong one', async () => {
    const missing = await rejection(e.getJob({ job_id: jobId }, noKey()));
    assert.deepEqual(
      [missing.status, missing.message, missing.context.key],
      [403, 'Encryption key required', 'missing'],
    );
    const wrong = await rejection(e.getJob({ job_id: jobId }, wrongKey()));
    assert.deepEqual(
      [wrong.status, wrong.message, wrong.context.key],
      [403, 'X-Service-Api-Enc-Key is invalid', 'wrong'],
    );
    const invalid = await rejection(e.getJob({ job_id: jobId }, badKey()));
    assert.deepEqual([invalid.status, invalid.context.key], [403, 'invalid']);
    assert.equal((await e.getJob({ job_id: jobId }, owner)).status, 'Completed');
  });

  test("search: the spec's 403 text either way, the problem in context.key", async () => {
    const body = { job_id: jobId, search: '', browse_events: true };
    const missing = await rejection(e.search(body, noKey()));
    const wrong = await rejection(e.search(body, wrongKey()));
    for (const [err, key] of [
      [missing, 'missing'],
      [wrong, 'wrong'],
    ] as const) {
      assert.deepEqual([err.status, err.message, err.context.key], [403, 'Encryption key required', key]);
    }
    assert.equal(wrong.context.row, 'search.keyWrong');
  });

  test('job creation (parse, Sigma file, YARA file): 400, not the unlisted 403, and says which', async () => {
    const creations = [
      (auth: Auth) => e.createParseJob({ file_ids: [fileId], run_sigma_rules: false }, auth),
      (auth: Auth) => e.createSigmaFileJob({ file_ids: [fileId], operation: 'run_community_rules' }, auth),
      (auth: Auth) => e.createYaraFileJob({ file_ids: [fileId], operation: 'run_community_rules' }, auth),
    ];
    for (const create of creations) {
      const missing = await rejection(create(noKey()));
      assert.deepEqual(
        [missing.status, missing.message, missing.context.key],
        [400, 'Encryption key required', 'missing'],
      );
      const wrong = await rejection(create(wrongKey()));
      assert.deepEqual(
        [wrong.status, wrong.message, wrong.context.key],
        [400, 'X-Service-Api-Enc-Key is invalid', 'wrong'],
      );
    }
  });

  test('cancel: a wrong key is not reported as a missing one', async () => {
    const wrong = await rejection(e.cancelJob({ job_id: jobId }, wrongKey()));
    assert.deepEqual([wrong.status, wrong.context.key], [403, 'wrong']);
    assert.notEqual(wrong.message, 'Encryption key required');
  });

  test('HTTP: byte-exact bodies, and X-<Brand>-Api-Enc-Key-Error names the problem', async () => {
    for (const brand of ['Service', 'Acme']) {
      const server = await serve({ engine: e, port: 0, brand });
      try {
        const search = (auth: Auth) =>
          call(server.url, 'POST', '/analysis/winevtx/search', {
            auth,
            brand,
            json: { job_id: jobId, search: '', browse_events: true },
          });
        const header = `X-${brand}-Api-Enc-Key-Error`;
        for (const [auth, problem] of [
          [noKey(), 'missing'],
          [wrongKey(), 'wrong'],
          [badKey(), 'invalid'],
        ] as const) {
          const a = await search(auth);
          assert.equal(a.status, 403, `${brand} ${problem}`);
          assert.equal(a.text, '{"error":"Encryption key required"}');
          assert.equal(a.headers.get(header), problem, `${brand} ${problem}`);
        }
        const status = await call(server.url, 'GET', `/analysis/job/${jobId}`, { auth: wrongKey(), brand });
        assert.equal(status.status, 403);
        assert.equal(status.text, `X-${brand}-Api-Enc-Key is invalid`);
        assert.equal(status.headers.get(header), 'wrong');
        const ok = await call(server.url, 'GET', `/analysis/job/${jobId}`, { auth: owner, brand });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get(header), null);
      } finally {
        await server.close();
      }
    }
  });
});
