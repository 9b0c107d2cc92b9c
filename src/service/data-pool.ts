/**
 * The data-endpoint pool: a Sigma data request is parsed, compiled and evaluated in a worker
 * thread (piscina), so a slow rule (a long `|re` over a large field takes seconds) never holds
 * the event loop that answers everyone else. Each request carries a time limit counted from
 * its arrival; when it passes, a queued request leaves the queue and a running one has its
 * worker terminated (the pool starts a fresh one for the next task). Sigma evaluation is
 * plain JS, so termination is a guaranteed bound; the caller answers with an in-band Error.
 * The pool starts on first use and idle workers let the process exit. Workers run at a lower
 * scheduling priority than the event loop, which keeps answering while they compute.
 */
import type { Piscina } from 'piscina';
import { type ErrorBodyFormat, type ErrorCode, TaeError } from '../errors/index.js';
import type { SigmaDataResponse } from '../sigma/index.js';
import { threadPool } from '../threads/index.js';

/** Under tsx the sources run as .ts; the built package runs the compiled .js next to this file. */
const workerUrl = new URL(`./data-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Old-generation heap per worker, in MB: 10 MB of test data as events fits with room to spare. */
const WORKER_HEAP_MB = 1024;

/** Default time limit of one data-endpoint request (Sigma and YARA), from arrival to answer. */
export const DEFAULT_DATA_TIME_LIMIT_MS = 30_000;

/** The community Sigma rules as text, for a worker to load once per version. */
export interface CommunitySigmaTexts {
  /** Changes whenever the community rules may have (a refresh); a worker reloads only then. */
  readonly version: string;
  /** UTF-8 JSON `{ sources, placeholders }` in shared memory: handed to workers without a copy. */
  readonly shared: Uint8Array;
}

/** The request fields a worker reads; anything not a string is sent as null (cloneable, and refused alike). */
export interface SigmaTask {
  readonly request: {
    readonly test_data: string | null;
    readonly operation: string | null;
    readonly rule: string | null;
  } | null;
  readonly community?: CommunitySigmaTexts;
}

export type SigmaTaskResult =
  | { readonly kind: 'done'; readonly response: SigmaDataResponse }
  /** A TaeError the request raised (its fields: errors lose their class across threads). */
  | {
      readonly kind: 'refused';
      readonly code: ErrorCode;
      readonly message: string;
      readonly status: number;
      readonly bodyFormat: ErrorBodyFormat;
      readonly context: Readonly<Record<string, string | number | boolean>>;
    };

/** What a pooled Sigma run came to: the worker's result, or cut by the time limit or memory. */
export type SigmaRunOutcome =
  | SigmaTaskResult
  | { readonly kind: 'timeout' }
  | { readonly kind: 'out-of-memory' };

export const refusedError = (r: Extract<SigmaTaskResult, { kind: 'refused' }>): TaeError =>
  new TaeError(r.code, r.message, { status: r.status, bodyFormat: r.bodyFormat, context: r.context });

/** "30 s", "0.5 s": the limit as a client reads it. */
export const seconds = (ms: number): string => `${ms / 1000} s`;

export class DataPool {
  private piscina: Piscina | null = null;

  constructor(
    readonly threads: number,
    /** Per request, from arrival to answer. */
    readonly timeLimitMs: number,
  ) {}

  /** A signal that fires when a request arriving now reaches its time limit. */
  deadline(): AbortSignal {
    return AbortSignal.timeout(this.timeLimitMs);
  }

  async sigma(task: SigmaTask, deadline: AbortSignal): Promise<SigmaRunOutcome> {
    if (deadline.aborted) return { kind: 'timeout' };
    try {
      return (await this.workers().run(task, { signal: deadline })) as SigmaTaskResult;
    } catch (e) {
      if (deadline.aborted) return { kind: 'timeout' };
      if ((e as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') return { kind: 'out-of-memory' };
      throw e;
    }
  }

  async close(): Promise<void> {
    const piscina = this.piscina;
    this.piscina = null;
    await piscina?.destroy();
  }

  private workers(): Piscina {
    this.piscina ??= threadPool({
      filename: workerUrl.href,
      // All started at once and replaced at once when a cut terminates one, so the next
      // request does not wait for a worker to load (under the time limit it is counted in).
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    return this.piscina;
  }
}
