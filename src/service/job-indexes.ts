/**
 * The event indexes of parse jobs, between the runner that builds them, the store that keeps
 * them and the search endpoint that reads them. A private job's index file is encrypted under
 * its job key from the first page written: the job's run context hands the key over (the
 * scheduler holds the owner key in memory only while the job may run).
 */
import { AAD, open } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import type { JobEventIndex, JobEventIndexOptions, RunContext } from '../jobs/index.js';
import { EventIndexBuilder } from '../search/index.js';
import type { JobRow, SqliteDatabase, Store } from '../store/index.js';

export class JobIndexes {
  constructor(private readonly store: Store) {}

  /** The runner's index for one run of a job (see WinevtxRunnerOptions.index). */
  begin = (run: Pick<RunContext, 'jobId' | 'jobKey'>, options: JobEventIndexOptions): JobEventIndex => {
    const { jobId } = run;
    const row = this.store.jobs.get(jobId);
    if (row === null) throw new TaeError('CANCELLED', 'job deleted');
    const sealed = row.visibility === 'private';
    const jobKey = sealed ? run.jobKey() : null;
    if (sealed && jobKey === null)
      throw new TaeError('INTERNAL', `no owner key for running private job ${jobId}`);
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
      ...(builder.rows === undefined ? {} : { rows: builder.rows }),
      ready: () => builder.ready(),
      fileDiagnostics: (file, diagnostics) => builder.fileDiagnostics(file, diagnostics),
      correlation: (rule, timestamp) => builder.correlation(rule, timestamp),
      payloadMatches: (matches) => builder.payloadMatches(matches),
      abort: async () => {
        wipe();
        await builder.abort();
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
}

const jobKey = (row: JobRow, ownerKey: Buffer): Buffer => open(ownerKey, row.wrappedKey!, AAD.jobKey(row.id));
