/**
 * Acceptance 6: 1,000 small parse jobs from 10 tokens, on a data directory, with the real
 * winevtx runner over a tiny generated EVTX file (7 events): half private (over each
 * token's own encrypted upload), half public. All complete, each belongs to its creator and
 * holds the right counts. Throughput (jobs/s) and upload speed are reported as diagnostics.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Auth, Engine, type SubscriptionLevel } from '../src/service/index.js';
import { smallLog } from './helpers/small-log.js';

const TOKENS = 10;
const JOBS_PER_TOKEN = 100;

test('1,000 small jobs from 10 tokens all complete, each owned by its creator', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-load-'));
  let done = 0;
  const failures: string[] = [];
  let allDone: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const e = await Engine.open({
    dataDir: dir,
    onJobStatus: (ev) => {
      if (ev.status === 'Failed') failures.push(ev.id);
      if ((ev.status === 'Completed' || ev.status === 'Failed') && ++done === TOKENS * JOBS_PER_TOKEN)
        allDone();
    },
  });
  try {
    const levels: SubscriptionLevel[] = ['free', 'standard', 'premium'];
    const users: { auth: Auth; file: string; jobs: string[] }[] = [];
    const shared = (await e.upload({ files: [{ name: 'shared.evtx', data: smallLog() }] })).file_ids[0]![0];
    for (let i = 0; i < TOKENS; i++) {
      const { token } = await e.createToken({ level: levels[i % 3]! });
      const auth = { token, encKey: `load test key number ${i}` };
      const file = (await e.upload({ files: [{ name: `user-${i}.evtx`, data: smallLog() }] }, auth))
        .file_ids[0]![0];
      users.push({ auth, file, jobs: [] });
    }

    const start = performance.now();
    for (let j = 0; j < JOBS_PER_TOKEN; j++) {
      for (const u of users) {
        const priv = j % 2 === 0;
        const job = await e.createParseJob(
          { file_ids: [priv ? u.file : shared], run_sigma_rules: false },
          priv ? u.auth : { token: u.auth.token },
        );
        u.jobs.push(job.id);
      }
    }
    const created = performance.now();
    await finished;
    const seconds = (performance.now() - start) / 1000;
    t.diagnostic(
      `1000 jobs: created in ${((created - start) / 1000).toFixed(2)} s, all finished in ${seconds.toFixed(2)} s ` +
        `(${(1000 / seconds).toFixed(0)} jobs/s, concurrency 2, durability normal)`,
    );
    assert.deepEqual(failures, []);

    for (const [i, u] of users.entries()) {
      const listed = (await e.listJobs(u.auth)).jobs;
      assert.deepEqual(
        listed.map((r) => r[0]),
        u.jobs,
        `token ${i} lists exactly its jobs, in order`,
      );
      assert.ok(listed.every((r) => r[2] === 'Completed'));
      for (const id of u.jobs) {
        const s = await e.getJob({ job_id: id }, u.auth);
        const overview = s.insights![0] as { Metadata: { data: Record<string, string> } };
        assert.equal(overview.Metadata.data.records, '7');
      }
      const stranger = users[(i + 1) % TOKENS]!.auth;
      await assert.rejects(e.getJob({ job_id: u.jobs[0]! }, stranger), { status: 404 });
    }
  } finally {
    await e.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('upload throughput, private (encrypted) and public, 64 MiB each', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-upload-'));
  const e = await Engine.open({ dataDir: dir });
  try {
    const auth = { token: (await e.createToken()).token, encKey: 'upload throughput test key' };
    await e.upload({ files: [{ name: 'warm', data: new Uint8Array(1) }] }, auth); // derive the key first
    const data = Buffer.alloc(64 * 1024 * 1024, 7);
    async function* chunks() {
      for (let at = 0; at < data.length; at += 1024 * 1024) yield data.subarray(at, at + 1024 * 1024);
    }
    for (const [label, a] of [
      ['private', auth],
      ['public', {}],
    ] as const) {
      const start = performance.now();
      const up = await e.upload({ files: [{ name: label, data: chunks() }] }, a);
      const s = (performance.now() - start) / 1000;
      t.diagnostic(`${label} upload: 64 MiB in ${s.toFixed(2)} s = ${(64 / s).toFixed(0)} MiB/s`);
      assert.equal(up.file_ids.length, 1);
    }
  } finally {
    await e.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
