/**
 * The event indexes of parse jobs, between the runner that builds them, the store that keeps
 * them and the search endpoint that reads them. A private job's index file is encrypted under
 * its job key from the first page written, so the owner key a private job runs with must be at
 * hand when it starts: the scheduler holds it (in memory only) while the job runs.
 */
import { AAD, open } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import {
  type JobEventIndex,
  type JobEventIndexOptions,
  Scheduler,
  type SchedulerOptions,
} from '../jobs/index.js';
import { EventIndexBuilder } from '../search/index.js';
import type { JobRow, SqliteDatabase, Store } from '../store/index.js';

export class JobIndexes {
  /** The owner key a running private job runs with (the scheduler's, see IndexingScheduler). */
  private ownerKeyOf: (jobId: string) => Buffer | null = () => null;

  constructor(private readonly store: Store) {}

  /** Where the owner keys of running jobs come from. */
  useKeysOf(scheduler: Scheduler): void {
    this.ownerKeyOf = (jobId) => scheduler.ownerKeyOf(jobId);
  }

  /** The runner's index for one run of job `jobId` (see WinevtxRunnerOptions.index). */
  begin = (jobId: string, options: JobEventIndexOptions): JobEventIndex => {
    const row = this.store.jobs.get(jobId);
    if (row === null) throw new TaeError('CANCELLED', 'job deleted');
    const sealed = row.visibility === 'private';
    const jobKey = sealed ? this.runningJobKey(row) : null;
    const target = this.store.indexes.buildTarget(jobId, jobKey);
    jobKey?.fill(0);
    const wipe = () => target.key?.fill(0);
    let builder: EventIndexBuilder;
    try {
      builder = new EventIndexBuilder(target, { sigma: options.sigma, describe: options.describe });
    } catch (e) {
      wipe();
      throw e;
    }
    return {
      add: (e, file, rules) => builder.add(e, file, rules),
      duplicate: (e, file) => builder.duplicate(e, file),
      fileDiagnostics: (file, diagnostics) => builder.fileDiagnostics(file, diagnostics),
      correlation: (rule, timestamp) => builder.correlation(rule, timestamp),
      abort: () => {
        builder.abort();
        wipe();
      },
      commit: async () => {
        try {
          await builder.finish(options.signal);
        } finally {
          wipe();
        }
        this.store.indexes.commit(jobId, target, sealed);
      },
    };
  };

  /** Runs `use` on a completed job's index (null when it has none); `ownerKey` for a private job. */
  async withIndex<T>(
    row: JobRow,
    ownerKey: Buffer | null,
    use: (db: SqliteDatabase | null) => T,
  ): Promise<T> {
    const key = row.wrappedKey === null || ownerKey === null ? null : jobKey(row, ownerKey);
    try {
      return await this.store.indexes.withIndex(row.id, key, use);
    } finally {
      key?.fill(0);
    }
  }

  private runningJobKey(row: JobRow): Buffer {
    const ownerKey = this.ownerKeyOf(row.id);
    if (ownerKey === null) throw new TaeError('INTERNAL', `no owner key for running private job ${row.id}`);
    return jobKey(row, ownerKey);
  }
}

const jobKey = (row: JobRow, ownerKey: Buffer): Buffer => open(ownerKey, row.wrappedKey!, AAD.jobKey(row.id));

/** The scheduler, telling `JobIndexes` which owner key each running private job runs with. */
export class IndexingScheduler extends Scheduler {
  constructor(options: SchedulerOptions, indexes: JobIndexes) {
    super(options);
    indexes.useKeysOf(this);
  }
}
