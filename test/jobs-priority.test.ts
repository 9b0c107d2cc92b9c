/**
 * Acceptance 5: with the one worker busy, queued jobs start by subscription level, then by
 * age; callers without a token come last.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobRunner } from '../src/jobs/index.js';
import { Engine } from '../src/service/index.js';

test('a higher-level token’s newer job starts before older lower-level ones; equal levels go oldest first', async () => {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const gate: JobRunner = (_input, ctx) =>
    new Promise((resolve) => {
      started.push(ctx.jobId);
      release.set(ctx.jobId, () => resolve([{ Metadata: { title: 't', data: {}, category: 'General' } }]));
    });
  const e = await Engine.open({ memory: true, concurrency: 1, runners: { winevtx: gate } });
  try {
    const free = { token: (await e.createToken({ level: 'free' })).token };
    const standard = { token: (await e.createToken({ level: 'standard' })).token };
    const premium = { token: (await e.createToken({ level: 'premium' })).token };
    const file = (await e.upload({ files: [{ name: 'x.evtx', data: new Uint8Array(8) }] })).file_ids[0]![0];
    const create = async (auth: { token?: string }) =>
      (await e.createParseJob({ file_ids: [file], run_sigma_rules: false }, auth)).id;

    const busy = await create(free);
    assert.deepEqual(started, [busy], 'the first job occupies the only worker');
    const anonymous = await create({});
    const freeOld = await create(free);
    const standardJob = await create(standard);
    const freeNew = await create(free);
    const premiumJob = await create(premium);
    assert.equal((await e.getJob({ job_id: premiumJob })).status, 'Pending');

    const expected = [busy, premiumJob, standardJob, freeOld, freeNew, anonymous];
    for (let i = 0; i < expected.length; i++) {
      await waitUntil(() => started.length === i + 1);
      release.get(started[i]!)!();
    }
    assert.deepEqual(started, expected);
    for (const id of expected)
      await waitUntil(async () => (await e.getJob({ job_id: id })).status === 'Completed');
  } finally {
    await e.close();
  }
});

async function waitUntil(ok: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('timed out');
}
