/**
 * The data endpoints run off the main thread with a time limit: while one Sigma request runs
 * the worst allowed work (a 100 KB `|re` of `(a|b)` × 20,000 over a 50 KB field, and
 * the 500 KB one), other callers are answered within 100 ms, in-process and over HTTP; a request
 * cut at the limit answers an in-band Error and the pool serves the next request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, type TestContext, test } from 'node:test';
import { isTaeError } from '../src/errors/index.js';
import { type RunningServer, serve } from '../src/http/index.js';
import { type Auth, Engine } from '../src/service/index.js';
import { compileRuleSet, dataMatcher, runSigma } from '../src/sigma/index.js';
import { call } from './helpers/http-client.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const LIMIT_MS = 5_000;
/** The answer may come this long after the limit (timer, worker termination, a loaded machine). */
const CUT_SLACK_MS = 1_500;

/** A Sigma rule of `(a|b)` repeated: 5 bytes per repetition, linear but slow to match. */
const alternationRule = (repeats: number) =>
  `title: alternation\nlogsource: {product: test}\ndetection:\n  sel:\n    Field|re: '${'(a|b)'.repeat(repeats)}'\n  condition: sel\n`;
const FIFTY_KB_FIELD = b64(JSON.stringify({ Field: 'ab'.repeat(25_000) }));

/**
 * Calls `probe` every 20 ms until `work` settles: how many answered, their 95th percentile and
 * the slowest, in ms. The machine running the tests may be shared: an idle server on it shows
 * rare 200 ms scheduling stalls, so the 100 ms bound is checked on the 95th percentile and the
 * slowest answer only has to stay far below the seconds a blocked event loop takes.
 */
async function latencyDuring(work: Promise<unknown>, probe: () => Promise<unknown>) {
  let settled = false;
  void work.then(
    () => (settled = true),
    () => (settled = true),
  );
  const times: number[] = [];
  while (!settled) {
    const t = performance.now();
    await probe();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  times.sort((a, b) => a - b);
  const p95 = times[Math.floor(times.length * 0.95)] ?? Number.NaN;
  return { count: times.length, p95, max: times.at(-1) ?? Number.NaN };
}

const PROMPT_MS = 100;
const STALL_MS = 500;

function answeredPromptly(t: TestContext, probes: { count: number; p95: number; max: number }, ms: number) {
  const seen = `${probes.count} probes in ${ms.toFixed(0)} ms: p95 ${probes.p95.toFixed(1)} ms, slowest ${probes.max.toFixed(1)} ms`;
  t.diagnostic(seen);
  assert.ok(probes.count >= 20, seen);
  assert.ok(probes.p95 < PROMPT_MS, seen);
  assert.ok(probes.max < STALL_MS, seen);
}

describe('data endpoints run off the main thread with a time limit', () => {
  let engine: Engine;
  let server: RunningServer;
  let owner: Auth;
  let jobId: string;
  before(async () => {
    engine = await Engine.open({ memory: true, dataTimeLimitMs: LIMIT_MS, dataThreads: 1 });
    server = await serve({ engine, port: 0 });
    owner = { token: (await engine.createToken()).token };
    const up = await engine.upload({ files: [{ name: 'a.bin', data: new TextEncoder().encode('data') }] });
    jobId = (await engine.createParseJob({ file_ids: [up.file_ids[0]![0]], run_sigma_rules: false }, owner))
      .id;
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  test('job status and lookup answer within 100 ms while a 100 KB |re rule runs over a 50 KB field, which is cut at the limit with an in-band Error', async (t) => {
    const rule = alternationRule(20_000);
    assert.ok(rule.length >= 100_000);
    const started = performance.now();
    const work = engine.sigmaData({ test_data: FIFTY_KB_FIELD, operation: 'run_rule', rule: b64(rule) });
    const probes = await latencyDuring(work, async () => {
      await engine.getJob({ job_id: jobId }, owner);
      await engine.lookup({ search: '4624', module: 'event_id' });
    });
    const elapsed = performance.now() - started;
    answeredPromptly(t, probes, elapsed);
    assert.deepEqual(await work, {
      results: [
        {
          type: 'Error',
          message: "Sigma evaluation stopped after 5 s: the request exceeded the data endpoint's time limit",
        },
      ],
    });
    t.diagnostic(`cut after ${elapsed.toFixed(0)} ms`);
    assert.ok(elapsed >= LIMIT_MS - 50 && elapsed < LIMIT_MS + CUT_SLACK_MS, `cut after ${elapsed} ms`);
  });

  test('after a cut the pool serves the next request with the usual result', async () => {
    const rule = `title: plain\nlogsource: {product: test}\ndetection:\n  sel:\n    Field|startswith: 'abab'\n  condition: sel\n`;
    const r = await engine.sigmaData({ test_data: FIFTY_KB_FIELD, operation: 'run_rule', rule: b64(rule) });
    assert.deepEqual(r.results, [
      { type: 'Table', title: 'Sigma Analysis Results', data: [['Rule'], ['plain']], category: 'Sigma' },
    ]);
  });

  test('over HTTP, job status answers within 100 ms while a 500 KB |re rule runs, cut with a 200 and an in-band Error', async (t) => {
    const rule = alternationRule(100_000);
    assert.ok(rule.length >= 500_000);
    const started = performance.now();
    const work = call(server.url, 'POST', '/analysis/sigma/data', {
      json: { test_data: FIFTY_KB_FIELD, operation: 'run_rule', rule: b64(rule) },
    });
    const probes = await latencyDuring(work, async () => {
      const a = await call(server.url, 'GET', `/analysis/job/${jobId}`, { auth: owner });
      assert.equal(a.status, 200, a.text);
    });
    answeredPromptly(t, probes, performance.now() - started);
    const answer = await work;
    assert.equal(answer.status, 200, answer.text);
    assert.match(JSON.parse(answer.text).results[0].message, /^Sigma evaluation stopped after 5 s/);
  });

  test('community rules over supplied data give in the pool what they give on the calling thread', async () => {
    const events = [
      { Channel: 'Security', EventID: 4740, TargetUserName: 'alice' },
      { Image: 'C:\\Windows\\System32\\whoami.exe', CommandLine: 'whoami /priv' },
    ];
    const request = { test_data: b64(JSON.stringify(events)), operation: 'run_community_rules' as const };
    const loaded = (await engine.rules()).sigmaRules();
    const matcher = dataMatcher(
      loaded.rules,
      compileRuleSet({ rules: loaded.rules, filters: loaded.filters }),
    );
    const expected = await runSigma(request, { community: matcher });
    const table = expected.results[0] as { data: string[][] };
    assert.ok(table.data.length >= 2, JSON.stringify(expected));
    assert.deepEqual(await engine.sigmaData(request), expected);
  });

  test('a YARA data request past the limit is an in-band Error beside the rule metadata, and the next is served', async (t) => {
    // Quadratic in the data: 64 KB makes 4·10⁹ steps, far past the limit.
    const rule =
      'rule slow { condition: for all i in (0..filesize) : ( for all j in (0..filesize) : ( uint8(i) != 0x100 ) ) }';
    const started = performance.now();
    const work = engine.yaraData({
      test_data: Buffer.alloc(64 * 1024, 0x41).toString('base64'),
      operation: 'run_rule',
      rule: b64(rule),
    });
    const probes = await latencyDuring(work, () => engine.getJob({ job_id: jobId }, owner));
    const r = await work;
    const elapsed = performance.now() - started;
    answeredPromptly(t, probes, elapsed);
    t.diagnostic(`cut after ${elapsed.toFixed(0)} ms`);
    assert.deepEqual(r.results[0], {
      Error: {
        message: "Yara analysis stopped after 5 s: the request exceeded the data endpoint's time limit",
      },
    });
    assert.equal(
      (r.results[1] as { Metadata: { data: { custom_rule: string } } }).Metadata.data.custom_rule,
      rule,
    );
    assert.ok(elapsed < LIMIT_MS + CUT_SLACK_MS, `cut after ${elapsed} ms`);
    const next = await engine.yaraData({
      test_data: b64('hello'),
      operation: 'run_rule',
      rule: b64('rule hi { strings: $h = "hello" condition: $h }'),
    });
    assert.deepEqual(next.results[0], {
      Table: {
        title: 'Yara Custom Rule Results',
        data: [
          ['File', 'Rule'],
          ['test_data', 'hi'],
        ],
        category: 'Yara',
      },
    });
  });
});

test('Engine.open validates dataTimeLimitMs and dataThreads, naming the option', async () => {
  for (const [key, value] of [
    ['dataTimeLimitMs', 0],
    ['dataTimeLimitMs', 1.5],
    ['dataTimeLimitMs', 3_600_001],
    ['dataThreads', 0],
  ] as const) {
    await assert.rejects(
      Engine.open({ memory: true, [key]: value }),
      (e: unknown) => isTaeError(e) && e.message.startsWith(`options.${key} must be`),
    );
  }
});
