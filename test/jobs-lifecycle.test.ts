/**
 * Job states and their outcomes: Pending → Processing → Completed | Failed, insights only
 * when finished, Error insights on failure, cancellation (of Pending and running jobs),
 * deletion of a running job, names unique per owner, and the winevtx summary runner.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TaeError } from '../src/errors/index.js';
import type { Insight } from '../src/insights/index.js';
import {
  createWinevtxRunner,
  type JobRunner,
  type JobStatusEvent,
  proposeJobName,
} from '../src/jobs/index.js';
import { DecodePool } from '../src/parse/index.js';
import { Engine, type EngineOptions } from '../src/service/index.js';
import { settle } from './helpers/engine-test.js';
import { smallLog } from './helpers/small-log.js';

const OK: Insight[] = [{ Metadata: { title: 'ok', data: { a: 'b' }, category: 'General' } }];

async function withEngine(
  options: Omit<EngineOptions, 'memory' | 'dataDir'>,
  body: (e: Engine, file: string) => Promise<void>,
) {
  const e = await Engine.open({ memory: true, ...options });
  try {
    const file = (await e.upload({ files: [{ name: 'small.evtx', data: smallLog() }] })).file_ids[0]![0];
    await body(e, file);
  } finally {
    await e.close();
  }
}

/** A runner that waits for `release()` or for its abort signal. */
function gated() {
  const state = { started: 0, aborted: 0, release: () => {} };
  const runner: JobRunner = (_input, ctx) =>
    new Promise((resolve, reject) => {
      state.started++;
      state.release = () => resolve(OK);
      ctx.signal.addEventListener('abort', () => {
        state.aborted++;
        reject(ctx.signal.reason);
      });
    });
  return { state, runner };
}

describe('job states', () => {
  test('a job is Pending, then Processing without insights, then Completed with them', async () => {
    const events: JobStatusEvent[] = [];
    const { state, runner } = gated();
    await withEngine(
      { concurrency: 1, runners: { winevtx: runner }, onJobStatus: (ev) => events.push(ev) },
      async (e, file) => {
        const first = await e.createParseJob({ file_ids: [file], run_sigma_rules: false });
        const second = await e.createParseJob({ file_ids: [file], run_sigma_rules: false });
        assert.deepEqual(await e.getJob({ job_id: second.id }), {
          id: second.id,
          job_name: second.job_name,
          status: 'Pending',
        });
        assert.deepEqual(await e.getJob({ job_id: first.id }), {
          id: first.id,
          job_name: first.job_name,
          status: 'Processing',
        });
        state.release();
        assert.deepEqual((await settle(e, first.id)).insights, OK);
        state.release();
        await settle(e, second.id);
        const of = (id: string) => events.filter((ev) => ev.id === id).map((ev) => ev.status);
        assert.deepEqual(of(first.id), ['Pending', 'Processing', 'Completed']);
        assert.deepEqual(of(second.id), ['Pending', 'Processing', 'Completed']);
      },
    );
  });

  test('a runner error fails the job with an Error insight; an unexpected one quotes an error id', async () => {
    const internal: string[] = [];
    let mode = 'tae';
    const runner: JobRunner = async () => {
      if (mode === 'tae') throw new TaeError('INPUT_UNREADABLE', 'the log is damaged beyond reading');
      if (mode === 'errors') return [{ Error: { message: 'a' } }, { Error: { message: 'b' } }];
      throw new RangeError('boom');
    };
    await withEngine(
      { runners: { winevtx: runner }, onInternalError: (_, id) => internal.push(id) },
      async (e, file) => {
        const run = async () =>
          settle(e, (await e.createParseJob({ file_ids: [file], run_sigma_rules: false })).id);
        const tae = await run();
        assert.deepEqual(tae.insights, [{ Error: { message: 'the log is damaged beyond reading' } }]);
        mode = 'errors';
        const errors = await run();
        assert.equal(errors.status, 'Failed', 'all-Error insights mean Failed');
        assert.equal(errors.insights?.length, 2);
        mode = 'crash';
        const crash = await run();
        assert.equal(crash.status, 'Failed');
        const message = (crash.insights![0] as { Error: { message: string } }).Error.message;
        assert.match(message, /^Internal error while processing the job \(error id [0-9a-f-]{36}\)$/);
        assert.ok(internal.some((id) => message.includes(id)));
      },
    );
  });

  test('Sigma and YARA file jobs run the community rules; custom rules reach runners decoded', async () => {
    let seenRule = '';
    const sigma: JobRunner<'sigma_file_custom'> = async (input) => {
      seenRule = input.rule;
      return OK;
    };
    await withEngine({ runners: { sigma_file_custom: sigma } }, async (e, file) => {
      const yara = await e.createYaraFileJob({ file_ids: [file], operation: 'run_community_rules' });
      assert.equal(yara.category, 'Yara');
      const scanned = await settle(e, yara.id);
      assert.equal(scanned.status, 'Completed', JSON.stringify(scanned.insights));
      assert.match(JSON.stringify(scanned.insights), /"title":"Yara Analysis Results"/);
      const community = await e.createSigmaFileJob({ file_ids: [file], operation: 'run_community_rules' });
      const swept = await settle(e, community.id);
      assert.equal(swept.status, 'Completed', JSON.stringify(swept.insights));
      assert.match(JSON.stringify(swept.insights), /"title":"Sigma Rule Matches"/);
      const rule = 'title: t\ndetection:\n  sel: {EventID: 1}\n  condition: sel\n';
      const custom = await e.createSigmaFileJob({
        file_ids: [file],
        operation: 'run_rule',
        rule: Buffer.from(rule).toString('base64'),
      });
      assert.equal(custom.category, 'sigma');
      assert.equal((await settle(e, custom.id)).status, 'Completed');
      assert.equal(seenRule, rule);
      const jobs = await e.listJobs({ token: (await e.createToken()).token });
      assert.deepEqual(jobs.jobs, [], 'anonymous jobs belong to no token');
    });
  });

  test('a custom Sigma file job reports each matching rule per file, with its time span', async () => {
    await withEngine({}, async (e, file) => {
      const rule = [
        'title: Failed network logon',
        'logsource: {product: windows, service: security}',
        'level: medium',
        'detection:',
        '  sel: {EventID: 4625, LogonType: 3}',
        '  condition: sel',
        '',
      ].join('\n');
      const job = await e.createSigmaFileJob({
        file_ids: [file],
        operation: 'run_rule',
        rule: Buffer.from(rule).toString('base64'),
      });
      const done = await settle(e, job.id);
      assert.equal(done.status, 'Completed');
      const table = done.insights?.find((i) => 'Table' in i && i.Table.title === 'Sigma Rule Matches');
      assert.ok(table && 'Table' in table);
      assert.deepEqual(table.Table.data, [
        ['File', 'Rule', 'Title', 'Level', 'Matches', 'First Seen', 'Last Seen'],
        [
          'small.evtx',
          'Failed network logon',
          'Failed network logon',
          'medium',
          '4',
          '2026-03-01 10:00:00',
          '2026-03-01 10:00:03',
        ],
      ]);
      const bad = await e.createSigmaFileJob({
        file_ids: [file],
        operation: 'run_rule',
        rule: Buffer.from('title: broken\ndetection: {condition: nothing}\n').toString('base64'),
      });
      const failed = await settle(e, bad.id);
      assert.equal(failed.status, 'Failed');
      assert.match(JSON.stringify(failed.insights), /Invalid Sigma rule format/);
    });
  });
});

describe('cancellation and deletion', () => {
  test('cancelling a running job fails it at once and aborts its runner; a late result changes nothing', async () => {
    const { state, runner } = gated();
    await withEngine({ concurrency: 1, runners: { winevtx: runner } }, async (e, file) => {
      const auth = { token: (await e.createToken()).token };
      const running = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
      const pending = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
      assert.deepEqual(await e.cancelJob({ job_id: pending.id }, auth), { message: 'Job cancelled' });
      assert.deepEqual(await e.cancelJob({ job_id: running.id }, auth), { message: 'Job cancelled' });
      assert.equal(state.aborted, 1);
      for (const id of [running.id, pending.id]) {
        const s = await e.getJob({ job_id: id });
        assert.deepEqual([s.status, s.insights], ['Failed', [{ Error: { message: 'Job cancelled' } }]]);
      }
      state.release();
      await new Promise((r) => setTimeout(r, 20));
      assert.equal((await e.getJob({ job_id: running.id })).status, 'Failed');
      assert.equal(state.started, 1, 'the cancelled Pending job never started');
      assert.deepEqual(await e.cancelJob({ job_id: running.id }, auth), { message: 'Job already failed' });
    });
  });

  test('deleting a running job cancels it first; its rows and results are gone for good', async () => {
    const { state, runner } = gated();
    await withEngine({ concurrency: 1, runners: { winevtx: runner } }, async (e, file) => {
      const auth = { token: (await e.createToken()).token, encKey: 'a key for the deletion test' };
      const running = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
      const next = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
      assert.deepEqual(await e.deleteJobs({ ids: [running.id] }, auth), { message: '1 job deleted' });
      assert.equal(state.aborted, 1);
      await assert.rejects(e.getJob({ job_id: running.id }, auth), { status: 404 });
      // The worker is free again: the next job starts.
      for (let i = 0; i < 100 && state.started < 2; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(state.started, 2);
      state.release();
      assert.equal((await settle(e, next.id, auth)).status, 'Completed');
      assert.deepEqual(
        (await e.listJobs(auth)).jobs.map((j) => j[0]),
        [next.id],
      );
    });
  });

  test('deleting several jobs is all or nothing', async () => {
    await withEngine({ runners: { winevtx: async () => OK } }, async (e, file) => {
      const a = { token: (await e.createToken()).token };
      const b = { token: (await e.createToken()).token };
      const mine = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, a);
      const theirs = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, b);
      await assert.rejects(e.deleteJobs({ ids: [mine.id, theirs.id] }, a), {
        status: 404,
        message: 'Job ID not found',
      });
      assert.equal((await e.listJobs(a)).jobs.length, 1, 'nothing was deleted');
    });
  });
});

describe('names', () => {
  test('300 jobs of one owner get 300 distinct adjective-noun names', async () => {
    await withEngine({ runners: { winevtx: async () => OK } }, async (e, file) => {
      const auth = { token: (await e.createToken()).token };
      const names = new Set<string>();
      for (let i = 0; i < 300; i++) {
        const job = await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth);
        assert.match(job.job_name, /^[a-z]+-[a-z]+(-\d+)?$/);
        names.add(job.job_name);
      }
      assert.equal(names.size, 300);
    });
  });

  test('after eight taken proposals a number is appended', () => {
    assert.match(proposeJobName(0), /^[a-z]+-[a-z]+$/);
    assert.match(proposeJobName(8), /^[a-z]+-[a-z]+-\d+$/);
  });
});

describe('the winevtx runner', () => {
  test('builds the result types with Sigma matches; a non-EVTX file becomes an Error insight beside them', async () => {
    await withEngine({}, async (e, file) => {
      const junk = (await e.upload({ files: [{ name: 'notes.txt', data: Buffer.from('hello, not a log') }] }))
        .file_ids[0]![0];
      const s = await settle(
        e,
        (await e.createParseJob({ file_ids: [file, junk], run_sigma_rules: true })).id,
      );
      assert.equal(s.status, 'Completed');
      const insights = s.insights ?? [];
      const titled = (t: string) => insights.find((i) => Object.values(i)[0]?.title === t);
      const overview = titled('Overview') as { Metadata: { data: Record<string, string> } };
      assert.equal(overview.Metadata.data.records, '7');
      assert.match(overview.Metadata.data.sigma!, /^\d+ matches of \d+ rules$/);
      const top = titled('Overview: Top Event IDs') as { Chart: { data: [string, number][] } };
      assert.deepEqual(top.Chart.data[0], ['4625 Security', 4]);
      const sigma = titled('Overview: Sigma Matches') as { Table: { data: string[][] } };
      assert.ok(
        sigma.Table.data.some((row) => /Service Installed/.test(row[0]!)),
        'a builtin rule saw the service',
      );
      for (const t of [
        'Process Inference Graph',
        'Key Event Timeline',
        'Process Analysis',
        'Network Analysis',
        'Authentication',
        'Persistence',
      ])
        assert.ok(titled(t), `${t} is present`);
      const error = insights.at(-1) as { Error: { message: string } };
      assert.match(error.Error.message, /^notes\.txt: input is not an EVTX file/);
      const quiet = await settle(
        e,
        (await e.createParseJob({ file_ids: [file], run_sigma_rules: false })).id,
      );
      const plain = (quiet.insights ?? []).find((i) => Object.values(i)[0]?.title === 'Overview') as {
        Metadata: { data: Record<string, string> };
      };
      assert.equal(plain.Metadata.data.sigma, 'not requested');
      const only = await settle(e, (await e.createParseJob({ file_ids: [junk], run_sigma_rules: false })).id);
      assert.equal(only.status, 'Failed', 'no readable file: the job fails with its Error insights');
    });
  });

  test('on disk, public files are read in place and private ones decrypted in memory, inline or in the pool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tae-jobs-'));
    const pool = new DecodePool(1);
    try {
      for (const inlineBelowBytes of [Number.MAX_SAFE_INTEGER, 0]) {
        const e = await Engine.open({
          dataDir: dir,
          runners: { winevtx: createWinevtxRunner({ pool: () => pool, inlineBelowBytes }) },
        });
        const owner = { token: (await e.createToken()).token, encKey: 'pool test key, 1234567' };
        const pub = (await e.upload({ files: [{ name: 'pub.evtx', data: smallLog() }] })).file_ids[0]![0];
        const priv = (await e.upload({ files: [{ name: 'priv.evtx', data: smallLog() }] }, owner))
          .file_ids[0]![0];
        const s = await settle(
          e,
          (await e.createParseJob({ file_ids: [pub, priv], run_sigma_rules: false }, owner)).id,
          owner,
        );
        const overview = s.insights![0] as { Metadata: { data: Record<string, string> } };
        // The private copy holds the same records as the public one: counted once, as duplicates.
        assert.deepEqual(
          [
            overview.Metadata.data.files,
            overview.Metadata.data.records,
            overview.Metadata.data.duplicate_records,
          ],
          ['pub.evtx: 7 records\npriv.evtx: 0 records (7 duplicates skipped)', '7', '7'],
        );
        await e.close();
      }
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
