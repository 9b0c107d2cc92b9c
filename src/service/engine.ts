/**
 * The Engine: the service of the interface, in-process. Each endpoint is one method taking
 * the request body and the two headers (`Auth`) and returning the response body; failures are
 * TaeErrors carrying the endpoint's status, exact message and body format (error-table.ts).
 * Anything unexpected becomes the endpoint's 500 with an error id. One engine at a time may
 * use a data directory.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { newId } from '../crypto/index.js';
import { checkOptionKeys, invalidOption, isNoSpace, isTaeError, TaeError } from '../errors/index.js';
import {
  createSigmaFileRunner,
  createWinevtxRunner,
  createYaraFileRunner,
  type JobRunners,
  type JobStatusEvent,
  Scheduler,
} from '../jobs/index.js';
import type { LookupRequest, LookupResult } from '../lookup/index.js';
import { defaultThreads } from '../parse/index.js';
import { type LazyPool, lazyPool } from '../pipeline/index.js';
import { INDEX_FILE, type RuleLibrary, type RuleLibraryOptions } from '../rules/index.js';
import { makeTempDir, type SearchRequest, type SearchResponse } from '../search/index.js';
import type { SigmaDataRequest, SigmaDataResponse } from '../sigma/index.js';
import { ownerOnlyDatabase, Store } from '../store/index.js';
import type { YaraDataRequest, YaraDataResponse } from '../yara/index.js';
import { Callers } from './callers.js';
import { Community } from './community.js';
import type { ServiceContext } from './context.js';
import * as data from './data-api.js';
import { DataPool, DEFAULT_DATA_TIME_LIMIT_MS } from './data-pool.js';
import type { Endpoint } from './endpoints.js';
import { endpointError } from './error-table.js';
import * as files from './files-api.js';
import { JobIndexes } from './job-indexes.js';
import * as queries from './job-queries.js';
import * as jobs from './jobs-api.js';
import { DEFAULT_LIMITS, type EngineLimits } from './limits.js';
import { type RetentionPolicy, type RetentionSweep, RetentionSweeper, retentionPolicy } from './retention.js';
import * as searchApi from './search-api.js';
import { newToken, type TokenOptions } from './tokens-api.js';
import type * as T from './types.js';
import type { Auth } from './types.js';

export interface EngineOptions {
  /** Directory holding the database and file contents (created if missing). */
  readonly dataDir?: string;
  /** Keep everything in memory instead (for embedding and tests); excludes `dataDir`. */
  readonly memory?: boolean;
  /** See StoreOptions.durability (default `normal`: survives a killed process). */
  readonly durability?: 'normal' | 'full';
  /** Jobs processed at once (default 2). */
  readonly concurrency?: number;
  /** Worker threads of the shared EVTX decode pool, created on first large file (default: cores, ≤ 8). */
  readonly decodeThreads?: number;
  /** Worker threads evaluating Sigma data requests, started on first use (default: 2, or 1 on one core). */
  readonly dataThreads?: number;
  /**
   * Time limit of one Sigma or YARA data request in ms, from arrival to answer (default 30,000):
   * work still queued or running then is stopped and answered with an in-band Error.
   */
  readonly dataTimeLimitMs?: number;
  /**
   * Runners replacing the built-in ones, per job type.
   * @internal
   */
  readonly runners?: Partial<JobRunners>;
  /**
   * The community rule library: the builtin pack plus user packs. Default: the packs recorded
   * in `<dataDir>/rule-library.sqlite` (in memory with `memory: true`) and `TAE_RULE_PACKS`.
   */
  readonly rules?: RuleLibraryOptions;
  readonly limits?: Partial<EngineLimits>;
  /** Engine stops a job may live through while Processing before it is failed (default 3). */
  readonly maxAttempts?: number;
  /**
   * How long files and jobs made without a token are kept, in ms: a file from its upload, a job
   * from when it finished (see retention.ts). Default 7 days; 0 keeps them forever.
   */
  readonly publicTtlMs?: number;
  /** The clock retention sweeps measure ages by (default `Date.now`; for tests). */
  readonly clock?: () => number;
  /** Each retention sweep's counts (at open, then periodically; also when nothing expired). */
  readonly onRetentionSweep?: (sweep: RetentionSweep) => void;
  readonly onJobStatus?: (event: JobStatusEvent) => void;
  /** Unexpected errors (a 500, a runner crash), with the error id their answer quoted. */
  readonly onInternalError?: (error: unknown, errorId: string) => void;
}

/** What `Engine.open` repaired after an unclean stop (all zero after a clean one). */
export interface EngineRecovery {
  /** Unfinished uploads removed. */
  readonly tempFilesRemoved: number;
  /** Contents whose upload never committed, removed. */
  readonly orphanBlobsRemoved: number;
  /** Jobs left Processing, queued again. */
  readonly requeued: number;
  /** Jobs left Processing too many times, failed with an Error insight. */
  readonly failed: number;
  /** Unfinished private jobs now waiting for their owner's key (a poll with it resumes them). */
  readonly parked: number;
  /** Unfinished event-index builds and index files of deleted jobs, removed. */
  readonly indexFilesRemoved: number;
  /** The database was rewritten once to turn on incremental vacuum (a data directory from before). */
  readonly databaseCompacted: boolean;
}

/** The retention policy of public data, and its latest sweep (null before the first). */
export interface EngineRetention extends RetentionPolicy {
  readonly lastSweep: RetentionSweep | null;
}

const KNOWN_OPTIONS: Record<keyof EngineOptions, true> = {
  dataDir: true,
  memory: true,
  durability: true,
  concurrency: true,
  decodeThreads: true,
  runners: true,
  rules: true,
  limits: true,
  maxAttempts: true,
  onJobStatus: true,
  onInternalError: true,
  publicTtlMs: true,
  clock: true,
  onRetentionSweep: true,
  dataThreads: true,
  dataTimeLimitMs: true,
};

function positiveInt(
  options: EngineOptions,
  key: 'concurrency' | 'decodeThreads' | 'dataThreads' | 'maxAttempts',
  d: number,
) {
  const v = options[key] ?? d;
  if (!Number.isInteger(v) || v < 1 || v > 64) throw invalidOption(key, 'an integer from 1 to 64', v);
  return v;
}

export class Engine {
  private closed = false;

  private constructor(
    private readonly s: ServiceContext,
    private readonly options: EngineOptions,
    private readonly pool: LazyPool,
    private readonly dataPool: DataPool,
    private readonly community: Community,
    private readonly indexes: JobIndexes,
    private readonly sweeper: RetentionSweeper,
    /** What opening found and repaired after an unclean stop. */
    readonly recovery: EngineRecovery,
  ) {}

  static async open(options: EngineOptions): Promise<Engine> {
    // Called from JavaScript without options, the first read below would be a raw TypeError.
    if (options === undefined || options === null)
      throw invalidOption('dataDir', 'a directory path (or pass { memory: true })', options);
    checkOptionKeys(options, KNOWN_OPTIONS);
    const memory = options.memory === true;
    if (memory === (typeof options.dataDir === 'string' && options.dataDir !== '')) {
      throw invalidOption('dataDir', 'a directory path, or omitted with memory: true', options.dataDir);
    }
    const concurrency = positiveInt(options, 'concurrency', 2);
    const threads = positiveInt(options, 'decodeThreads', defaultThreads());
    const maxAttempts = positiveInt(options, 'maxAttempts', 3);
    const dataThreads = positiveInt(options, 'dataThreads', Math.min(2, availableParallelism()));
    const dataTimeLimitMs = options.dataTimeLimitMs ?? DEFAULT_DATA_TIME_LIMIT_MS;
    if (!Number.isInteger(dataTimeLimitMs) || dataTimeLimitMs < 1 || dataTimeLimitMs > 3_600_000)
      throw invalidOption('dataTimeLimitMs', 'an integer number of ms from 1 to 3600000', dataTimeLimitMs);
    const limits = { ...DEFAULT_LIMITS, ...options.limits };
    for (const [k, v] of Object.entries(limits)) {
      if (!Number.isSafeInteger(v) || v < 1) throw invalidOption(`limits.${k}`, 'a positive integer', v);
    }
    if (
      options.durability !== undefined &&
      options.durability !== 'normal' &&
      options.durability !== 'full'
    ) {
      throw invalidOption('durability', '"normal" or "full"', options.durability);
    }
    const policy = retentionPolicy(options.publicTtlMs);
    if (options.clock !== undefined && typeof options.clock !== 'function')
      throw invalidOption('clock', 'a function returning epoch milliseconds', options.clock);
    const store = await Store.open({
      ...(memory ? { indexDir: makeTempDir('indexes') } : { dataDir: options.dataDir! }),
      ...(options.durability ? { durability: options.durability } : {}),
    });
    try {
      // The rule library's database is made by the rules module; it is ours to keep owner-only.
      if (!memory && options.rules === undefined) ownerOnlyDatabase(join(options.dataDir!, INDEX_FILE));
    } catch (e) {
      store.close();
      throw e;
    }
    const pool = lazyPool(threads);
    const community = new Community(options.rules ?? { dataDir: memory ? false : options.dataDir! });
    const sigmaFiles = createSigmaFileRunner({
      pool: pool.get,
      community: () => community.sigma(),
    });
    const yaraFiles = createYaraFileRunner({ community: () => community.yara() });
    const indexes = new JobIndexes(store);
    const runners: JobRunners = {
      winevtx: createWinevtxRunner({
        pool: pool.get,
        sigma: () => community.sigma(),
        yara: () => community.yara(),
        index: indexes.begin,
      }),
      sigma_file_community: (input, ctx) => sigmaFiles(input, ctx),
      sigma_file_custom: (input, ctx) => sigmaFiles(input, ctx),
      yara_file_community: (input, ctx) => yaraFiles(input, ctx),
      yara_file_custom: (input, ctx) => yaraFiles(input, ctx),
      ...options.runners,
    };
    const scheduler = new Scheduler({
      store,
      runners,
      concurrency,
      maxAttempts,
      ...(options.onJobStatus ? { onStatus: options.onJobStatus } : {}),
      ...(options.onInternalError ? { onInternalError: options.onInternalError } : {}),
    });
    const s: ServiceContext = { store, callers: new Callers(store), scheduler, limits };
    const dataPool = new DataPool(dataThreads, dataTimeLimitMs);
    const sweeper = new RetentionSweeper(
      s,
      policy,
      options.clock ?? Date.now,
      (sweep) => options.onRetentionSweep?.(sweep),
      (e, id) => options.onInternalError?.(e, id),
    );
    await sweeper.sweepReporting(); // before the queue starts: what was Processing is still so
    const recovery = { ...store.recovery, ...scheduler.start() };
    sweeper.start();
    return new Engine(s, options, pool, dataPool, community, indexes, sweeper, recovery);
  }

  /** Issues a token (the spec does not show how; this is ours; see also `issueToken`). */
  async createToken(options: TokenOptions = {}): Promise<T.IssuedToken> {
    this.ensureOpen();
    const { issued, row } = newToken(options);
    this.s.store.tokens.insert(row);
    return issued;
  }

  upload(request: T.UploadRequest, auth: T.Auth = {}): Promise<T.UploadResponse> {
    return this.guard('upload', () => files.upload(this.s, request, auth));
  }

  listFiles(auth: T.Auth = {}): Promise<T.FileListResponse> {
    return this.guard('listFiles', () => files.listFiles(this.s, auth));
  }

  deleteFiles(request: T.DeleteRequest, auth: T.Auth = {}): Promise<T.MessageResponse> {
    return this.guard('deleteFiles', () => files.deleteFiles(this.s, request, auth));
  }

  createParseJob(request: T.ParseJobRequest, auth: T.Auth = {}): Promise<T.JobCreated> {
    return this.guard('createParseJob', () => jobs.createParseJob(this.s, request, auth));
  }

  createSigmaFileJob(request: T.FileJobRequest, auth: T.Auth = {}): Promise<T.JobCreated> {
    return this.guard('createSigmaFileJob', () => jobs.createSigmaFileJob(this.s, request, auth));
  }

  createYaraFileJob(request: T.FileJobRequest, auth: T.Auth = {}): Promise<T.JobCreated> {
    return this.guard('createYaraFileJob', () => jobs.createYaraFileJob(this.s, request, auth));
  }

  getJob(request: T.JobRequest, auth: T.Auth = {}): Promise<T.JobStatusResponse> {
    return this.guard('getJob', () => queries.getJob(this.s, request, auth));
  }

  listJobs(auth: T.Auth = {}): Promise<T.JobListResponse> {
    return this.guard('listJobs', () => queries.listJobs(this.s, auth));
  }

  deleteJobs(request: T.DeleteRequest, auth: T.Auth = {}): Promise<T.MessageResponse> {
    return this.guard('deleteJobs', () => queries.deleteJobs(this.s, request, auth));
  }

  /**
   * `POST /analysis/winevtx/search`: a completed parse job's events, by text, filters and time
   * window, a page at a time (`browse_events: true`); or its analysis rebuilt for the window.
   * `request` is a `SearchRequest`, checked field by field.
   */
  search(request: SearchRequest | unknown, auth: T.Auth = {}): Promise<SearchResponse> {
    return this.guard('search', () => searchApi.search(this.s, this.indexes, request, auth));
  }

  /** Ours: `POST /analysis/job/cancel` `{ job_id }`; a Pending or Processing job becomes Failed. */
  cancelJob(request: T.JobRequest, auth: T.Auth = {}): Promise<T.MessageResponse> {
    return this.guard('cancelJob', () => queries.cancelJob(this.s, request, auth));
  }

  /** `POST /analysis/sigma/data`: Sigma rules over supplied JSON or XML events, at once. */
  sigmaData(request: SigmaDataRequest, auth: Auth = {}): Promise<SigmaDataResponse> {
    return this.guard('sigmaData', () =>
      data.sigmaData(this.s, this.community, this.dataPool, request, auth),
    );
  }

  /** `POST /analysis/yara/data`: YARA rules over supplied bytes, at once. */
  yaraData(request: YaraDataRequest, auth: Auth = {}): Promise<YaraDataResponse> {
    return this.guard('yaraData', () => data.yaraData(this.s, this.community, this.dataPool, request, auth));
  }

  /** `POST /analysis/sigma/rules`: community Sigma rules by name, as lines. */
  sigmaRules(request: data.RuleNamesRequest, auth: Auth = {}): Promise<data.RuleLinesResponse> {
    return this.guard('sigmaRules', () => data.ruleLines(this.s, this.community, 'sigma', request, auth));
  }

  /** `POST /analysis/yara/rules`: community YARA rules by name, as lines. */
  yaraRules(request: data.RuleNamesRequest, auth: Auth = {}): Promise<data.RuleLinesResponse> {
    return this.guard('yaraRules', () => data.ruleLines(this.s, this.community, 'yara', request, auth));
  }

  /** `POST /analysis/lookup`: event identifiers and native file names. */
  lookup(request: LookupRequest, auth: Auth = {}): Promise<LookupResult> {
    return this.guard('lookup', async () => data.lookup(this.s, request, auth));
  }

  /** The retention policy of public (token-less) files and jobs, and its latest sweep. */
  get retention(): EngineRetention {
    return { ...this.sweeper.policy, lastSweep: this.sweeper.lastSweep };
  }

  /** Sweeps expired public files and jobs now (the engine also does on open and on a timer). */
  sweepPublicData(): Promise<RetentionSweep> {
    this.ensureOpen();
    return this.sweeper.sweep();
  }

  /** The rule library behind the community runs (add packs here; then `refreshRules`). */
  rules(): Promise<RuleLibrary> {
    this.ensureOpen();
    return this.community.rules();
  }

  /** Recompiles the community rules on next use, e.g. after a pack was added. */
  refreshRules(): void {
    this.community.refresh();
  }

  /** Stops the queue (running jobs return to Pending for the next open) and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sweeper.close();
    await this.s.scheduler.close();
    await this.pool.close();
    await this.dataPool.close();
    await this.community.close();
    this.s.store.close();
  }

  private ensureOpen(): void {
    if (this.closed) throw new TaeError('INVALID_ARGUMENT', 'the engine is closed');
  }

  private async guard<R>(endpoint: Endpoint, run: () => Promise<R>): Promise<R> {
    this.ensureOpen();
    try {
      return await run();
    } catch (e) {
      if (isTaeError(e) && e.context.endpoint === endpoint) throw e;
      // A full disk is the operator's to fix, not a bug to report: no error id.
      if (isNoSpace(e)) throw endpointError(`${endpoint}.noSpace`, {}, e);
      const errorId = newId();
      this.options.onInternalError?.(e, errorId);
      throw endpointError(`${endpoint}.internal`, { error_id: errorId }, e);
    }
  }
}
