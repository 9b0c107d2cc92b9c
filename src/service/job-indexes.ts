/**
 * The event indexes of parse jobs, between the runner that builds them, the store that keeps
 * them and the search endpoint that reads them. A private job's index is sealed under its job
 * key when it is committed, so the owner key a private job runs with must be at hand then:
 * `IndexingScheduler` remembers the keys the scheduler is given (at submit, and when a poll
 * re-arms a parked job) until the job finishes or is deleted. Keys live only in memory.
 */
import { AAD, open } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import {
  type JobEventIndex,
  type JobEventIndexOptions,
  type JobStatusEvent,
  Scheduler,
  type SchedulerOptions,
  type SubmitJob,
} from '../jobs/index.js';
import { EventIndexBuilder } from '../search/index.js';
import type { JobRow, SqliteDatabase, Store } from '../store/index.js';

export class JobIndexes {
  /** Owner keys of private jobs that may run, by job id. */
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly store: Store) {}

  rememberKey(jobId: string, ownerKey: Buffer): void {
    this.keys.set(jobId, ownerKey);
  }

  forgetKey(jobId: string): void {
    this.keys.delete(jobId);
  }

  /** Drops the remembered key of a job that has finished. */
  onStatus = (event: JobStatusEvent): void => {
    if (event.status === 'Completed' || event.status === 'Failed') this.keys.delete(event.id);
  };

  /** The runner's index for one run of job `jobId` (see WinevtxRunnerOptions.index). */
  begin = (jobId: string, options: JobEventIndexOptions): JobEventIndex => {
    const row = this.store.jobs.get(jobId);
    if (row === null) throw new TaeError('CANCELLED', 'job deleted');
    const path = this.store.indexes.buildPath(jobId, row.visibility);
    const builder = new EventIndexBuilder(path === null ? { kind: 'memory' } : { kind: 'file', path }, {
      sigma: options.sigma,
      describe: options.describe,
    });
    return {
      add: (e, file, rules) => builder.add(e, file, rules),
      duplicate: (e, file) => builder.duplicate(e, file),
      fileDiagnostics: (file, diagnostics) => builder.fileDiagnostics(file, diagnostics),
      correlation: (rule, timestamp) => builder.correlation(rule, timestamp),
      abort: () => builder.abort(),
      commit: async () => {
        const built = await builder.finish(options.signal);
        if (built.kind === 'file') {
          this.store.indexes.commitFile(jobId, built.path);
          return;
        }
        const key = row.visibility === 'private' ? this.runningJobKey(row) : null;
        try {
          this.store.indexes.commitImage(jobId, built.image, key);
        } finally {
          if (key !== null) built.image.fill(0);
        }
      },
    };
  };

  /** Runs `use` on a completed job's index (null when it has none); `ownerKey` for a private job. */
  withIndex<T>(row: JobRow, ownerKey: Buffer | null, use: (db: SqliteDatabase | null) => T): Promise<T> {
    const key = row.wrappedKey === null || ownerKey === null ? null : jobKey(row, ownerKey);
    return this.store.indexes.withIndex(row.id, key, use);
  }

  private runningJobKey(row: JobRow): Buffer {
    const ownerKey = this.keys.get(row.id);
    if (ownerKey === undefined)
      throw new TaeError('INTERNAL', `no owner key for running private job ${row.id}`);
    return jobKey(row, ownerKey);
  }
}

const jobKey = (row: JobRow, ownerKey: Buffer): Buffer => open(ownerKey, row.wrappedKey!, AAD.jobKey(row.id));

/** The scheduler, telling `JobIndexes` which owner key each private job runs with. */
export class IndexingScheduler extends Scheduler {
  constructor(
    options: SchedulerOptions,
    private readonly indexes: JobIndexes,
  ) {
    super({
      ...options,
      onStatus: (event) => {
        indexes.onStatus(event);
        options.onStatus?.(event);
      },
    });
  }

  override submit(job: SubmitJob): JobRow {
    // The runner needs the key only when it commits, long after this returns.
    const row = super.submit(job);
    if (job.ownerKey !== null && row.visibility === 'private') this.indexes.rememberKey(row.id, job.ownerKey);
    return row;
  }

  override arm(row: JobRow, ownerKey: Buffer): void {
    if (row.visibility === 'private' && row.status === 'Pending') this.indexes.rememberKey(row.id, ownerKey);
    super.arm(row, ownerKey);
  }

  override forget(jobId: string): void {
    this.indexes.forgetKey(jobId);
    super.forget(jobId);
  }
}
