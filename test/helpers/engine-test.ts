/** What engine tests share: temporary data directories and waiting for a job to finish. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { isTaeError, type TaeError } from '../../src/errors/index.js';
import type { Auth, Engine, JobStatusResponse } from '../../src/service/index.js';

/** A maker of fresh temporary directories, all removed when the test file ends. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/**
 * Polls a job until it is Completed or Failed; `during` runs at each poll (to inspect the disk
 * while the job runs). Fails after `timeoutMs` (default 60 s: loaded CI machines are slow).
 */
export async function settle(
  e: Engine,
  job_id: string,
  auth: Auth = {},
  options: { readonly timeoutMs?: number; readonly during?: () => void } = {},
): Promise<JobStatusResponse> {
  const end = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < end) {
    options.during?.();
    const s = await e.getJob({ job_id }, auth);
    if (s.status === 'Completed' || s.status === 'Failed') return s;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`job ${job_id} did not finish`);
}

/** The TaeError a call rejects with; fails when it resolves or throws anything else. */
export async function rejection(p: Promise<unknown>): Promise<TaeError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isTaeError(e), `expected a TaeError, got ${e}`);
    return e;
  }
  assert.fail('the call succeeded');
}
