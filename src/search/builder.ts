/**
 * Building a job's event index while the job runs: each new event is staged (batched, one
 * transaction per batch, on a writer thread: stager.ts), and `finish` has a worker thread copy
 * them in time order and build the indexes (complete.ts). A build writes `<path>.stage` while running and `<path>` at the
 * end, both encrypted page by page under the target's key when it has one (a private job),
 * each through a bounded page cache: memory does not grow with the job.
 */
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import type { DescribeEvent } from '../analysis/index.js';
import { fromThreadFailure, invalidOption, TaeError } from '../errors/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import { isBuiltinDescriber } from '../lookup/index.js';
import type { PackedRows, RowRef } from '../rows/index.js';
import { threadPool } from '../threads/index.js';
import { closeGateAsync, newGate, removeBlockFiles } from './blocks.js';
import {
  completeIndex,
  type FinishResult,
  type FinishTask,
  type IndexTables,
  removeFile,
  stagePath,
} from './complete.js';
import type { FinishOutcome } from './finish-worker.js';
import { RuleNumbers } from './rule-numbers.js';
import { blockRowsFor } from './schema.js';
import type { EventSink, PayloadMatchRef, SigmaRuleRef } from './sink.js';
import {
  inThreadStager,
  isRowRef,
  type StagedDuplicate,
  type StagedEvent,
  type Stager,
  threadStager,
} from './stager.js';

export type { EventSink, PayloadMatchRef, SigmaRuleRef } from './sink.js';

/** Where to build: a file path, and the key that encrypts it (32 bytes), or null for a plain file. */
export interface BuildTarget {
  readonly path: string;
  readonly key: Buffer | null;
}
/** A finished index file. */
export interface BuiltIndex {
  readonly path: string;
  readonly events: number;
}

export interface EventIndexOptions {
  /** The job ran Sigma rules (the rebuild's Overview then lists their matches). */
  readonly sigma: boolean;
  /** Windows messages for the Message column (the lookup module's `eventDescriber()`). */
  readonly describe?: DescribeEvent;
  /** Events per staging transaction (default 256). */
  readonly batchSize?: number;
  /**
   * Rows per trigram block (default: `blockRowsFor` the events and `textBlockThreads`, at most
   * TEXT_BLOCK_ROWS; small values are for tests).
   */
  readonly textBlockRows?: number;
  /** Threads that may build trigram blocks at once (default: the cores, at most 8). */
  readonly textBlockThreads?: number;
  /** Complete the build in a worker thread (default true), keeping this thread free. */
  readonly worker?: boolean;
  /** Events staged on this thread before staging moves to a writer thread (default 8,192). */
  readonly writerThreadFrom?: number;
}

const NO_TITLES: readonly string[] = [];
const NO_NOS: readonly number[] = [];
const MAX_DIAGNOSTICS_PER_FILE = 1000;
const MAX_CORRELATIONS = 100_000;
const MAX_YARA_ROWS = 100_000;
/**
 * Batches' worth of one chunk's rows that wait for its end (atChunk) before going anyway: sent
 * mid-chunk, a batch left that chunk's pack here and the writer got a copy of it (with batches
 * of 256 events, 2.7 s of the 1 GB job's thread in postMessage).
 */
const OPEN_BATCHES = 4;
/** Events staged on the job's thread before the staging moves to a writer thread. */
const THREAD_FROM_EVENTS = 8192;
const MAX_FILES = 10_000;

export class EventIndexBuilder implements EventSink {
  /** Writes `<path>.stage`: on this thread, then (a large build) on a writer thread. */
  private stager: Stager;
  /** Whether the build may move its staging to a writer thread, and whether it has. */
  private readonly threadable: boolean;
  private threaded = false;
  private batch: StagedEvent[] = [];
  private duplicates: StagedDuplicate[] = [];
  /** The packed rows of the latest row added: the chunk still being added, whose buffers stay here. */
  private open: PackedRows | undefined;
  /** Arrival order of events and duplicates. */
  private seq = 0;
  private readonly batchSize: number;
  /** Rows per trigram block when the options fix them; else chosen for the events at the end. */
  private readonly blockRows: number | undefined;
  private readonly blockThreads: number;
  private readonly files = new Map<string, { no: number; diagnostics: Diagnostic[] }>();
  private readonly rules = new RuleNumbers();
  private readonly correlations: [number, number][] = [];
  private readonly yara: [number, number, string][] = [];
  private staged = 0;
  private done = false;
  /** `finish` has made the index file (its caller makes it someone's, or aborts). */
  private built = false;
  private aborting: Promise<void> | undefined; // settles once a dropped build's files are gone
  /** Rows made by decode workers carry the built-in messages or none: other describers make their own. */
  readonly rows: { readonly messages: boolean } | undefined;

  constructor(
    private readonly target: BuildTarget,
    private readonly options: EventIndexOptions,
  ) {
    // Batches to a writer thread stay small: a batch's events live until it is sent, and fewer
    // of them survive each young-generation collection on the job's thread (measured: 2000 →
    // 256 cut its scavenge time by 15%).
    this.batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw invalidOption('batchSize', 'a positive integer', options.batchSize);
    this.blockRows = options.textBlockRows;
    if (this.blockRows !== undefined && (!Number.isInteger(this.blockRows) || this.blockRows < 1))
      throw invalidOption('textBlockRows', 'a positive integer', options.textBlockRows);
    this.blockThreads = options.textBlockThreads ?? Math.min(availableParallelism(), 8);
    if (!Number.isInteger(this.blockThreads) || this.blockThreads < 1)
      throw invalidOption('textBlockThreads', 'a positive integer', options.textBlockThreads);
    this.removeFiles();
    // The writer thread makes rows with its own describer: only the built-in one can be had there.
    const describe = options.describe;
    const builtin = describe === undefined || isBuiltinDescriber(describe);
    this.threadable = options.worker !== false && builtin;
    this.rows = builtin ? { messages: describe !== undefined } : undefined;
    try {
      this.stager = inThreadStager(target.path, target.key, describe);
    } catch (e) {
      this.removeFiles();
      throw e;
    }
  }

  add(e: EvtxEvent | RowRef, file: string, rules: readonly SigmaRuleRef[]): void {
    this.ensureOpen();
    // Most events match no rule: they share one pair of empty lists (sent to the writer once).
    let titles = NO_TITLES;
    let ruleNos = NO_NOS;
    if (rules.length > 0) {
      const t: string[] = [];
      const nos: number[] = [];
      for (const r of rules) {
        const { no, title } = this.rules.of(r);
        if (nos.includes(no)) continue;
        nos.push(no);
        t.push(title);
      }
      titles = t;
      ruleNos = nos;
    }
    const fileNo = this.fileOf(file).no;
    if (isRowRef(e)) {
      this.atChunk(e.packed);
      this.batch.push([++this.seq, fileNo, ruleNos, titles, e.packed, e.at]);
      this.open = e.packed;
    } else this.batch.push([++this.seq, fileNo, ruleNos, titles, e, -1]);
    this.flushIfFull(isRowRef(e));
  }

  duplicate(e: EvtxEvent | RowRef, file: string): void {
    this.ensureOpen();
    const fileNo = this.fileOf(file).no;
    if (isRowRef(e)) {
      this.atChunk(e.packed);
      this.duplicates.push([++this.seq, fileNo, e.packed, e.at]);
      this.open = e.packed;
    } else this.duplicates.push([++this.seq, fileNo, e, -1]);
    this.flushIfFull(isRowRef(e));
  }

  /** A full batch goes at a chunk's first row, so its packs move whole (sent mid-chunk, one is copied). */
  private atChunk(packed: PackedRows): void {
    if (packed === this.open || Math.max(this.batch.length, this.duplicates.length) < this.batchSize) return;
    this.open = undefined;
    this.flush();
  }

  /** Rows wait for their chunk's end, up to OPEN_BATCHES batches; whole events go at one. */
  private flushIfFull(rows: boolean): void {
    if (Math.max(this.batch.length, this.duplicates.length) >= this.batchSize * (rows ? OPEN_BATCHES : 1))
      this.flush();
  }

  fileDiagnostics(file: string, diagnostics: readonly Diagnostic[]): void {
    this.ensureOpen();
    const f = this.fileOf(file);
    for (const d of diagnostics) {
      if (f.diagnostics.length >= MAX_DIAGNOSTICS_PER_FILE) break;
      f.diagnostics.push(d);
    }
  }

  correlation(rule: SigmaRuleRef, timestamp: number): void {
    this.ensureOpen();
    if (this.correlations.length < MAX_CORRELATIONS && Number.isFinite(timestamp))
      this.correlations.push([this.rules.of(rule).no, timestamp]);
  }

  payloadMatches(matches: readonly PayloadMatchRef[]): void {
    this.ensureOpen();
    for (const m of matches)
      for (const r of m.records) {
        const file = r.file === undefined ? undefined : this.files.get(r.file);
        if (file === undefined) continue;
        for (const { rule } of m.rules)
          if (this.yara.length < MAX_YARA_ROWS) this.yara.push([file.no, r.recordId, rule]);
      }
  }

  /** Resolves when the writer can take more events (the job awaits it between chunks). */
  ready(): Promise<void> {
    return this.stager.ready();
  }

  /**
   * Copies the staged events in time order and builds the indexes (in a worker unless told
   * otherwise); staging is dropped. `signal` stops the worker (the job was cancelled).
   */
  async finish(signal?: AbortSignal): Promise<BuiltIndex> {
    this.ensureOpen();
    this.done = true;
    let key: Buffer | null = null;
    // Closed before a failed or cancelled build's files go: no thread opens (re-creates) one after.
    const gate = newGate();
    try {
      this.open = undefined; // no more rows come
      this.flush();
      const tables = this.tables();
      await this.stager.close();
      // The worker gets its own copy of the key, wiped here when it is done.
      key = this.target.key === null ? null : Buffer.from(this.target.key);
      const task: FinishTask = { path: this.target.path, key, tables, blockThreads: this.blockThreads, gate };
      if (this.options.worker === false) await completeIndex(task);
      else await inWorker(task, signal);
      this.built = true;
      return { path: this.target.path, events: this.staged };
    } catch (e) {
      await closeGateAsync(gate);
      await this.stager.abort(); // the writer thread lets the staging file go before it is removed
      this.removeFiles();
      throw e;
    } finally {
      key?.fill(0);
    }
  }

  /**
   * Drops everything built so far (the job was cancelled or failed), a finished index file
   * included: one that its caller could not make the job's (a `finish` under way is stopped by
   * its signal, and removes its own files). Resolves once the writer thread has ended and the
   * files are removed: a file removed while a thread holds it keeps its space (awaited before a
   * job's outcome is written to the disk the build filled).
   */
  abort(): Promise<void> {
    if (this.built) {
      this.built = false;
      this.removeFiles();
    }
    if (this.aborting !== undefined) return this.aborting;
    if (this.done) return Promise.resolve();
    this.done = true;
    this.batch = [];
    this.duplicates = [];
    this.aborting = this.stager.abort().then(() => this.removeFiles());
    this.aborting.catch(() => {}); // a build dropped by `flush` may have no one awaiting it
    return this.aborting;
  }

  private tables(): IndexTables {
    return {
      sigma: this.options.sigma,
      events: this.staged,
      blockRows: this.blockRows ?? blockRowsFor(this.staged, this.blockThreads),
      files: [...this.files].map(([name, f]) => [f.no, name, JSON.stringify(f.diagnostics)] as const),
      rules: this.rules.rows(),
      correlations: this.correlations,
      yara: this.yara,
    };
  }

  private flush(): void {
    if (this.batch.length === 0 && this.duplicates.length === 0) return;
    const rows = this.batch;
    const duplicates = this.duplicates;
    this.batch = [];
    this.duplicates = [];
    try {
      this.stager.write(rows, duplicates, this.open);
    } catch (e) {
      // A batch that cannot be staged ends the build: its writer thread and files go now, so a
      // caller that does not await `abort` holds no thread and leaves no file behind.
      void this.abort();
      throw e;
    }
    this.staged += rows.length;
    const from = this.options.writerThreadFrom ?? THREAD_FROM_EVENTS;
    if (this.threadable && !this.threaded && this.staged >= from) this.toWriterThread();
  }

  /**
   * A thread costs its start-up (tens of ms, more than a small job's whole staging), so a build
   * stages on this thread until it is large, then hands the staging file, every batch in it
   * committed, to a writer thread that goes on appending.
   */
  private toWriterThread(): void {
    void this.stager.close(); // synchronous for the in-thread stager
    this.threaded = true;
    this.stager = threadStager(this.target.path, this.target.key, this.options.describe !== undefined);
  }

  private fileOf(name: string) {
    let f = this.files.get(name);
    if (f === undefined) {
      if (this.files.size >= MAX_FILES) throw new TaeError('TOO_LARGE', `more than ${MAX_FILES} files`);
      f = { no: this.files.size + 1, diagnostics: [] };
      this.files.set(name, f);
    }
    return f;
  }

  private ensureOpen(): void {
    if (this.done) throw new TaeError('INVALID_ARGUMENT', 'the event index is already finished');
  }

  private removeFiles(): void {
    removeFile(stagePath(this.target.path));
    removeBlockFiles(this.target.path, removeFile);
    removeFile(this.target.path);
  }
}

const workerUrl = new URL(
  `./finish-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/**
 * Threads that complete builds: two at most (jobs run two at a time); idle ones exit soon, so a
 * finished job's results are written and read back without a completion thread's heap beside
 * them (a thread starts in about 0.1 s, a completion takes seconds).
 */
let pool: Piscina | undefined;

/** Runs `task` on a worker thread; `signal` abandons it (the thread finishes its SQLite work). */
async function inWorker(task: FinishTask, signal?: AbortSignal): Promise<FinishResult> {
  // The work is SQLite's (its page caches are bounded): a small young generation is enough.
  pool ??= threadPool({
    filename: workerUrl.href,
    minThreads: 0,
    maxThreads: 2,
    idleTimeout: 250,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  try {
    const outcome = (await pool.run(task, signal ? { signal } : {})) as FinishOutcome;
    switch (outcome.kind) {
      case 'file':
        return outcome;
      case 'failed':
        throw fromThreadFailure(outcome.failure, 'event index build failed');
      default:
        return outcome satisfies never;
    }
  } catch (e) {
    if (signal?.aborted) throw new TaeError('CANCELLED', 'index build cancelled', { cause: e });
    if (e instanceof TaeError) throw e;
    throw new TaeError('INTERNAL', `event index build failed: ${(e as Error).message}`, { cause: e });
  }
}
