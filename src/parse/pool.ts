/**
 * The decode pool: piscina worker threads, each task a span of chunks. In-flight work is
 * bounded (2 × threads) and results come back in file order.
 */
import type { Piscina } from 'piscina';
import { debugLine } from '../errors/index.js';
import type { DecodedChunk } from '../evtx/index.js';
import { threadPool } from '../threads/index.js';
import type { SpanResult, SpanTask } from './decode-worker.js';

/** Under tsx the sources run as .ts; the built package runs the compiled .js next to this file. */
const workerUrl = new URL(
  `./decode-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/**
 * A decode worker's young generation (MiB), DecodePool's default (a job's pipeline workers' too,
 * see pipeline/stage.ts). V8 grows it to 64 MiB per semi-space when a thread allocates
 * fast, as a decoder does; a span's records die young, so a small one costs little time and
 * keeps each worker's heap near 50 MiB instead of 170 (measured on 238 MiB files).
 */
export const DECODE_WORKER_YOUNG_MB = 16;

/**
 * How long the pool may sit idle before its workers are let go (ms). A job's index completion
 * and a service between jobs leave them idle for seconds to minutes: each holds a heap of about
 * 50 MiB. The next task starts them again (about 0.1 s).
 */
export const DECODE_POOL_IDLE_MS = 1_500;

export class DecodePool {
  private piscina: Piscina | null = null;
  private active = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  /**
   * `worker`: a module whose default export takes the same span tasks (this module's worker
   * wrapped with more work per record, see SpanTask's `stage`); default the decode worker.
   */
  constructor(
    readonly threads: number,
    private readonly worker: URL = workerUrl,
    private readonly idleMs = DECODE_POOL_IDLE_MS,
    /** What each worker gets as `workerData` when it starts (asked for at each start). */
    private readonly workerData?: () => unknown,
    /** Each worker's young generation (MiB). */
    private readonly youngMb = DECODE_WORKER_YOUNG_MB,
  ) {}

  private start(): Piscina {
    if (this.piscina === null)
      debugLine(`decode pool: ${this.threads} worker thread${this.threads === 1 ? '' : 's'}`);
    this.piscina ??= threadPool({
      filename: this.worker.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 30_000,
      // A second task waits in each worker, so it never idles while the main thread dispatches.
      concurrentTasksPerWorker: 2,
      resourceLimits: { maxYoungGenerationSizeMb: this.youngMb },
      ...(this.workerData === undefined ? {} : { workerData: this.workerData() }),
    });
    return this.piscina;
  }

  /** Whether worker threads are running now (they are let go after `idleMs` without a task). */
  get running(): boolean {
    return this.piscina !== null;
  }

  /**
   * Runs one span. An aborted `signal` refuses it; a span already running finishes (it takes
   * milliseconds). The signal does not go on to piscina: piscina adds an abort listener per task
   * to it (a job's, alive for the whole job), and the listeners it removes again kept each span's
   * result reachable from the old generation, so the main thread's young collections promoted
   * it (measured, see orderedDecode).
   * @internal
   */
  run(task: SpanTask, signal?: AbortSignal): Promise<SpanResult> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new Error('the decode pool is closed'));
    clearTimeout(this.idle);
    this.idle = undefined;
    const transferList: ArrayBuffer[] = [task.bytes];
    if (task.textBuffer !== undefined) transferList.push(task.textBuffer);
    this.active++;
    const result = this.start().run(task, { transferList });
    const settled = () => {
      if (--this.active === 0 && !this.closed) {
        this.idle = setTimeout(() => this.release(), this.idleMs);
        this.idle.unref();
      }
    };
    result.then(settled, settled);
    return result;
  }

  /**
   * Lets the workers go now if no task is running: a caller done with its files (a job about to
   * build its index) need not wait for the idle time. The next task starts them again.
   */
  release(): void {
    clearTimeout(this.idle);
    this.idle = undefined;
    const piscina = this.piscina;
    if (this.active > 0 || piscina === null) return;
    this.piscina = null;
    void piscina.destroy().catch(() => {});
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const piscina = this.piscina;
    this.piscina = null;
    await piscina?.destroy();
  }
}

/** Buffers that came back from the workers, to be handed out again. */
export interface SpareBuffers {
  readonly bytes: ArrayBuffer[];
  readonly text: ArrayBuffer[];
}

/**
 * Runs span tasks keeping at most `maxInFlight` outstanding, yielding chunks in input order.
 * Input buffers that come back go to `spares.bytes` at once. With `recycleText`, a span's
 * text buffer goes to `spares.text` once the consumer has asked for the chunk after the
 * span's last: no allocation and no GC-tracked transfer per span. `signal` is checked before
 * each span is sent and when each result comes back; the spans in flight then run out (they
 * are not aborted: see DecodePool's `run`). With the signal on each task, the 1 GB private
 * job's main thread promoted 546 MB of short-lived objects and made 24 full collections; without,
 * 152 MB and 9 (piscina 4.9.2, both).
 */
export async function* orderedDecode(
  tasks: AsyncIterable<SpanTask> | Iterable<SpanTask>,
  pool: DecodePool,
  maxInFlight: number,
  spares: SpareBuffers,
  recycleText: boolean,
  signal?: AbortSignal,
): AsyncGenerator<DecodedChunk> {
  const inFlight: Promise<SpanResult>[] = [];
  const run = (t: SpanTask) => {
    const textBuffer = spares.text.pop();
    const p = pool.run(textBuffer === undefined ? t : { ...t, textBuffer });
    p.catch(() => {}); // observed when its turn comes; avoids an unhandled rejection meanwhile
    inFlight.push(p);
  };
  const next = async function* () {
    const { chunks, bytes } = await inFlight.shift()!;
    if (bytes !== undefined) spares.bytes.push(bytes);
    signal?.throwIfAborted();
    yield* chunks;
    const text = chunks[0]?.text;
    if (recycleText && text !== undefined) spares.text.push(text.buffer as ArrayBuffer);
  };
  try {
    for await (const t of tasks) {
      signal?.throwIfAborted();
      run(t);
      if (inFlight.length >= maxInFlight) yield* next();
    }
    while (inFlight.length > 0) yield* next();
  } finally {
    await Promise.allSettled(inFlight);
  }
}
