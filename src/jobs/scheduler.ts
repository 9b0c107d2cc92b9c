/**
 * The job queue: jobs wait in SQLite as Pending and the highest priority, then the oldest,
 * runs next, `concurrency` at a time. A private job runs only while its owner key is in memory
 * (the key is never stored): after a restart it waits, parked, until its owner polls it with
 * the key (`arm`). State changes are guarded writes (see store/jobs.ts), so cancellation,
 * deletion and shutdown never race a finishing runner into a wrong state.
 */
import { AAD, newDataKey, newId, open, seal } from '../crypto/index.js';
import { isNoSpace, isTaeError, NO_SPACE_TEXT, TaeError } from '../errors/index.js';
import { errorInsight, type Insight, isErrorInsight } from '../insights/index.js';
import { type JobRow, type JobStatus, openContent, readContent, type Store } from '../store/index.js';
import { decodeInput, encodeInput, encodeResult } from './codec.js';
import { proposeJobName } from './names.js';
import type { JobFile, JobInput, JobRunner, JobRunners, RunContext } from './types.js';

export interface JobStatusEvent {
  readonly id: string;
  /** The owner id (the token's digest, see crypto tokenDigest), null for a job without token. */
  readonly owner: string | null;
  readonly status: JobStatus;
}

export interface SchedulerOptions {
  readonly store: Store;
  readonly runners: JobRunners;
  /** Jobs running at once. */
  readonly concurrency: number;
  /** A job interrupted by this many engine stops while Processing is failed, not retried. */
  readonly maxAttempts: number;
  readonly onStatus?: (event: JobStatusEvent) => void;
  /** Errors nobody awaits (a runner's unexpected throw, a failed final write), with their id. */
  readonly onInternalError?: (error: unknown, errorId: string) => void;
}

export interface SubmitJob {
  readonly owner: string | null;
  readonly priority: number;
  readonly input: JobInput;
  /** The owner key makes the job private (input and results sealed); null makes it public. */
  readonly ownerKey: Buffer | null;
}

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

const CLOSE_GRACE_MS = 5000;

/** A job stopped by a full disk: the Error insight its status shows (README "Interface decisions"). */
export const JOB_NO_SPACE_TEXT = `${NO_SPACE_TEXT} while processing the job`;

export class Scheduler {
  private readonly running = new Map<string, Running>();
  /** Owner keys of private jobs that may run, by job id. */
  private readonly ownerKeys = new Map<string, Buffer>();
  /**
   * Jobs that ended while not even their disk-full outcome could be written (their row still
   * says Processing), by id, with the owner key that seals it: written at the next poll of the
   * job (`writeUnwritten`) or when another job ends.
   */
  private readonly unwritten = new Map<string, { readonly row: JobRow; readonly ownerKey: Buffer | null }>();
  private closed = false;

  constructor(private readonly o: SchedulerOptions) {}

  /** Re-queues jobs a killed process left Processing and parks private ones; then starts work. */
  start(): { requeued: number; failed: number; parked: number } {
    let requeued = 0;
    let failed = 0;
    for (const row of this.o.store.jobs.interrupted()) {
      if (row.visibility === 'public' && row.attempts >= this.o.maxAttempts) {
        this.o.store.jobs.finish(row.id, 'Failed', encodeResult(row, [this.poisoned(row)], null), Date.now());
        failed++;
      } else {
        this.o.store.jobs.requeue(row.id, false);
        requeued++;
      }
    }
    const parked = this.o.store.jobs.parkPrivate();
    this.pump();
    return { requeued, failed, parked };
  }

  submit(job: SubmitJob): JobRow {
    const id = newId();
    const dataKey = job.ownerKey === null ? null : newDataKey();
    const row = this.o.store.jobs.insert(
      {
        id,
        owner: job.owner,
        type: job.input.type,
        priority: job.priority,
        createdAt: Date.now(),
        visibility: job.ownerKey === null ? 'public' : 'private',
        input: encodeInput(id, job.input, dataKey),
        wrappedKey: job.ownerKey === null ? null : seal(job.ownerKey, dataKey!, AAD.jobKey(id)),
      },
      proposeJobName,
    );
    if (job.ownerKey !== null) this.ownerKeys.set(id, job.ownerKey);
    this.emit(row, 'Pending');
    this.pump();
    return row;
  }

  /** Gives a parked private job its owner key back (the owner polled with the key). */
  arm(row: JobRow, ownerKey: Buffer): void {
    if (row.visibility !== 'private' || row.status !== 'Pending' || this.ownerKeys.has(row.id)) return;
    if (row.attempts >= this.o.maxAttempts) {
      this.finishEarly(row, ownerKey, this.poisoned(row));
      return;
    }
    // The write first: one that fails (a full disk) must leave the job parked for the next poll,
    // not holding a key that makes every later poll think it armed.
    const armed = this.o.store.jobs.arm(row.id);
    this.ownerKeys.set(row.id, ownerKey);
    if (armed) this.pump();
  }

  /** Cancels a Pending or Processing job: it becomes Failed with an Error insight at once. */
  cancel(row: JobRow, ownerKey: Buffer | null): 'cancelled' | 'finished' {
    if (row.status === 'Completed' || row.status === 'Failed') return 'finished';
    return this.finishEarly(row, ownerKey, errorInsight('Job cancelled')) ? 'cancelled' : 'finished';
  }

  /** Stops a job's runner, if any, without writing (its rows are being deleted). */
  forget(jobId: string): void {
    this.running.get(jobId)?.controller.abort(new TaeError('CANCELLED', 'job deleted'));
    this.ownerKeys.delete(jobId);
    this.unwritten.delete(jobId);
  }

  /**
   * Writes the outcome of a job that ended while the disk was full, if it is one: Failed with
   * the disk-full insight. While the disk is still full this throws the write's error, so the
   * poll that asked meets the full disk (507, the CLI's exit 7) instead of seeing Processing
   * forever: no runner is left to end the job.
   */
  writeUnwritten(jobId: string): void {
    const pending = this.unwritten.get(jobId);
    if (pending === undefined) return;
    this.finish(pending.row, 'Failed', [errorInsight(JOB_NO_SPACE_TEXT)], pending.ownerKey);
    this.unwritten.delete(jobId);
  }

  /** Stops taking work; running jobs go back to Pending for the next open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const runs = [...this.running];
    for (const [id, r] of runs) {
      r.controller.abort(new TaeError('CANCELLED', 'engine closing'));
      this.o.store.jobs.requeue(id, true);
    }
    this.ownerKeys.clear();
    this.writeAllUnwritten(); // else they stay Processing, and the next open re-queues them
    this.unwritten.clear();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
    });
    await Promise.race([Promise.allSettled(runs.map(([, r]) => r.done)), grace]);
    clearTimeout(timer);
  }

  get runningCount(): number {
    return this.running.size;
  }

  private finishEarly(row: JobRow, ownerKey: Buffer | null, insight: Insight): boolean {
    const done = this.o.store.jobs.finish(
      row.id,
      'Failed',
      encodeResult(row, [insight], ownerKey),
      Date.now(),
    );
    this.running.get(row.id)?.controller.abort(new TaeError('CANCELLED', 'job cancelled'));
    this.ownerKeys.delete(row.id);
    this.unwritten.delete(row.id);
    if (done) this.emit(row, 'Failed');
    return done;
  }

  private poisoned(row: JobRow): Insight {
    return errorInsight(
      `The engine stopped ${row.attempts} times while this job was processing; it is not retried again`,
    );
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.o.concurrency) {
      const row = this.o.store.jobs.claimNext(
        Date.now(),
        (r) => r.visibility === 'public' || this.ownerKeys.has(r.id),
      );
      if (row === null) return;
      const controller = new AbortController();
      const done = this.execute(row, controller.signal)
        .catch((e: unknown) => this.o.onInternalError?.(e, newId()))
        .finally(() => {
          this.running.delete(row.id);
          this.pumpSafely();
        });
      this.running.set(row.id, { controller, done });
    }
  }

  private async execute(row: JobRow, signal: AbortSignal): Promise<void> {
    this.emit(row, 'Processing');
    const ownerKey = row.visibility === 'private' ? (this.ownerKeys.get(row.id) ?? null) : null;
    let insights: readonly Insight[];
    try {
      const input = decodeInput(row, ownerKey);
      const runner = this.o.runners[input.type] as JobRunner;
      insights = await runner(input, this.context(row, input, ownerKey, signal));
    } catch (e) {
      insights = [this.failure(e)];
    }
    if (signal.aborted) return; // whoever aborted (cancel, delete, close) has written the outcome
    try {
      const status = insights.length > 0 && insights.every(isErrorInsight) ? 'Failed' : 'Completed';
      this.finish(row, status, insights, ownerKey);
    } catch (e) {
      try {
        // Results that do not fit the space left: a few bytes saying so may still fit.
        if (!isNoSpace(e)) throw e;
        this.finish(row, 'Failed', [errorInsight(JOB_NO_SPACE_TEXT)], ownerKey);
      } catch (again) {
        // Not even that fits: the job stays Processing, its outcome kept here to be written at
        // the next poll or when another job ends (the next open re-queues it otherwise).
        if (isNoSpace(again)) this.unwritten.set(row.id, { row, ownerKey });
        else this.o.onInternalError?.(again, newId());
      }
    } finally {
      this.ownerKeys.delete(row.id);
    }
  }

  private finish(
    row: JobRow,
    status: 'Completed' | 'Failed',
    insights: readonly Insight[],
    ownerKey: Buffer | null,
  ): void {
    if (this.o.store.jobs.finish(row.id, status, encodeResult(row, insights, ownerKey), Date.now()))
      this.emit(row, status);
  }

  private failure(e: unknown): Insight {
    if (isNoSpace(e)) return errorInsight(JOB_NO_SPACE_TEXT);
    if (isTaeError(e) && e.code !== 'INTERNAL') return errorInsight(e.message);
    const errorId = newId();
    this.o.onInternalError?.(e, errorId);
    return errorInsight(`Internal error while processing the job (error id ${errorId})`);
  }

  private context(row: JobRow, input: JobInput, ownerKey: Buffer | null, signal: AbortSignal): RunContext {
    const allowed = new Set(input.file_ids);
    const { store } = this.o;
    return {
      jobId: row.id,
      signal,
      jobKey: () =>
        ownerKey === null || row.wrappedKey === null
          ? null
          : open(ownerKey, row.wrappedKey, AAD.jobKey(row.id)),
      async readFile(fileId: string, options?: { readonly stream?: boolean }): Promise<JobFile> {
        const stream = options?.stream === true;
        const f = allowed.has(fileId) ? store.files.get(fileId) : null;
        const gone = () => new TaeError('INPUT_UNREADABLE', `File ${fileId} is no longer available`);
        if (f === null) throw gone();
        const base = { id: f.id, name: f.name, size: f.size };
        if (f.wrappedKey === null) {
          const source =
            store.blobs.pathOf(f.id) ??
            (stream ? await openContent(store.blobs, f, null) : await readContent(store.blobs, f, null));
          return { ...base, encrypted: false, source };
        }
        if (ownerKey === null || f.owner !== row.owner) throw gone();
        const dataKey = open(ownerKey, f.wrappedKey, AAD.fileKey(f.id));
        const source = stream
          ? await openContent(store.blobs, f, dataKey)
          : await readContent(store.blobs, f, dataKey);
        return { ...base, encrypted: true, source };
      },
    };
  }

  /** Pumping after a job ends has no caller to report to: a failure (the database is gone) is logged. */
  private pumpSafely(): void {
    this.writeAllUnwritten();
    try {
      this.pump();
    } catch (e) {
      this.o.onInternalError?.(e, newId());
    }
  }

  /** Outcomes kept by a full disk, written if they fit now (else kept for later). */
  private writeAllUnwritten(): void {
    for (const id of [...this.unwritten.keys()])
      try {
        this.writeUnwritten(id);
      } catch (e) {
        if (!isNoSpace(e)) {
          this.unwritten.delete(id);
          this.o.onInternalError?.(e, newId());
        }
      }
  }

  /** A throwing listener must not break the queue. */
  private emit(row: JobRow, status: JobStatus): void {
    try {
      this.o.onStatus?.({ id: row.id, owner: row.owner, status });
    } catch (e) {
      this.o.onInternalError?.(e, newId());
    }
  }
}
