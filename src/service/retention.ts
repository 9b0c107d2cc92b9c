/**
 * Retention of public data: files uploaded and jobs created without a token have no owner who
 * could delete them, so the engine does. A file expires `publicTtlMs` after its upload; a job
 * `publicTtlMs` after it finished (its result stays readable that long however long it
 * queued). Jobs still Pending or Processing are never swept, nor the files their (public)
 * inputs name; anything with an owner is never swept. A sweep runs when the engine opens and
 * then every `sweepIntervalMs` on a timer that does not keep the process alive, and deletes
 * through the owner's path (removal.ts), so blobs, index files and rows all go.
 */
import { newId } from '../crypto/index.js';
import { invalidOption } from '../errors/index.js';
import { decodeInput } from '../jobs/index.js';
import type { JobRow } from '../store/index.js';
import type { ServiceContext } from './context.js';
import { removeFiles, removeJobs } from './removal.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A week: a Friday upload is still there on Monday, and disk holds at most a week of it. */
export const DEFAULT_PUBLIC_TTL_MS = 7 * DAY;
const MAX_TTL_MS = 3650 * DAY;
const BATCH = 500;

export interface RetentionPolicy {
  /** How long public data is kept; 0: forever (no sweep). */
  readonly publicTtlMs: number;
  /** Time between sweeps (a tenth of the TTL, from one minute to one hour); 0 when off. */
  readonly sweepIntervalMs: number;
}

export interface RetentionSweep {
  /** Epoch ms the sweep compared ages against. */
  readonly at: number;
  readonly filesRemoved: number;
  readonly jobsRemoved: number;
}

export function retentionPolicy(ttl: unknown = DEFAULT_PUBLIC_TTL_MS): RetentionPolicy {
  if (ttl !== 0 && (!Number.isSafeInteger(ttl) || (ttl as number) < MINUTE || (ttl as number) > MAX_TTL_MS)) {
    throw invalidOption(
      'publicTtlMs',
      `0 (keep forever) or milliseconds from ${MINUTE} to ${MAX_TTL_MS}`,
      ttl,
    );
  }
  const publicTtlMs = ttl as number;
  const sweepIntervalMs =
    publicTtlMs === 0 ? 0 : Math.min(HOUR, Math.max(1, Math.round(publicTtlMs / 10 / MINUTE)) * MINUTE);
  return { publicTtlMs, sweepIntervalMs };
}

export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RetentionSweep> | null = null;
  private last: RetentionSweep | null = null;

  constructor(
    private readonly s: ServiceContext,
    readonly policy: RetentionPolicy,
    private readonly now: () => number,
    private readonly onSweep: (sweep: RetentionSweep) => void,
    private readonly onError: (error: unknown, errorId: string) => void,
  ) {}

  get lastSweep(): RetentionSweep | null {
    return this.last;
  }

  /** Sweeps now (joining a sweep under way); with the policy off, removes nothing. */
  sweep(): Promise<RetentionSweep> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** A sweep whose failure is reported, not thrown (at open and on the timer). */
  async sweepReporting(): Promise<void> {
    try {
      await this.sweep();
    } catch (e) {
      this.onError(e, newId());
    }
  }

  start(): void {
    if (this.policy.sweepIntervalMs === 0 || this.timer !== null) return;
    this.timer = setInterval(() => void this.sweepReporting(), this.policy.sweepIntervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep under way (it must not outlive the store). */
  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private async run(): Promise<RetentionSweep> {
    const at = this.now();
    let filesRemoved = 0;
    let jobsRemoved = 0;
    if (this.policy.publicTtlMs > 0) {
      const before = at - this.policy.publicTtlMs;
      const ownerless = (row: { owner: string | null } | null) => row !== null && row.owner === null;
      for (let after = 0; ; ) {
        const batch = this.s.store.jobs.expiredPublic(before, after, BATCH);
        if (batch.length === 0) break;
        after = batch.at(-1)!.seq;
        // Selected and deleted in one synchronous step: no request can start one of them between.
        const ids = batch.map((j) => j.id);
        const finished = (j: JobRow | null) =>
          ownerless(j) && (j!.status === 'Completed' || j!.status === 'Failed');
        if (removeJobs(this.s, ids, finished) === null) jobsRemoved += ids.length;
      }
      for (let after = 0; ; ) {
        const batch = this.s.store.files.expiredPublic(before, after, BATCH);
        if (batch.length === 0) break;
        after = batch.at(-1)!.seq;
        const needed = this.filesOfUnfinishedJobs();
        const ids = batch.map((f) => f.id).filter((id) => !needed.has(id));
        if (ids.length > 0 && (await removeFiles(this.s, ids, ownerless)) === null)
          filesRemoved += ids.length;
      }
    }
    const sweep = { at, filesRemoved, jobsRemoved };
    this.last = sweep;
    try {
      this.onSweep(sweep);
    } catch (e) {
      this.onError(e, newId()); // a throwing listener must not fail the sweep
    }
    return sweep;
  }

  private filesOfUnfinishedJobs(): Set<string> {
    return new Set(this.s.store.jobs.unfinishedPublic().flatMap((row) => decodeInput(row, null).file_ids));
  }
}
