/**
 * The decode pool: piscina worker threads, each task a span of chunks. In-flight work is
 * bounded (2 × threads) and results come back in file order.
 */
import { Piscina } from 'piscina';
import type { DecodedChunk } from '../evtx/index.js';
import type { SpanResult, SpanTask } from './decode-worker.js';

/** Under tsx the sources run as .ts; the built package runs the compiled .js next to this file. */
const workerUrl = new URL(
  `./decode-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/**
 * Each worker's young generation (MiB). V8 grows it to 64 MiB per semi-space when a thread
 * allocates fast, as a decoder does; a span's records die young, so a small one costs little
 * time and keeps each worker's heap near 50 MiB instead of 170 (measured on 238 MiB files).
 */
export const DECODE_WORKER_YOUNG_MB = 16;

export class DecodePool {
  private readonly piscina: Piscina;

  /**
   * `worker`: a module whose default export takes the same span tasks (this module's worker
   * wrapped with more work per record, see SpanTask's `stage`); default the decode worker.
   */
  constructor(
    readonly threads: number,
    worker: URL = workerUrl,
  ) {
    this.piscina = new Piscina({
      filename: worker.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 30_000,
      // A second task waits in each worker, so it never idles while the main thread dispatches.
      concurrentTasksPerWorker: 2,
      resourceLimits: { maxYoungGenerationSizeMb: DECODE_WORKER_YOUNG_MB },
    });
  }

  run(task: SpanTask, signal?: AbortSignal): Promise<SpanResult> {
    const transferList: ArrayBuffer[] = [task.bytes];
    if (task.textBuffer !== undefined) transferList.push(task.textBuffer);
    return this.piscina.run(task, { transferList, ...(signal ? { signal } : {}) });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
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
 * span's last: no allocation and no GC-tracked transfer per span.
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
    const p = pool.run(textBuffer === undefined ? t : { ...t, textBuffer }, signal);
    p.catch(() => {}); // observed when its turn comes; avoids an unhandled rejection meanwhile
    inFlight.push(p);
  };
  const next = async function* () {
    const { chunks, bytes } = await inFlight.shift()!;
    if (bytes !== undefined) spares.bytes.push(bytes);
    yield* chunks;
    const text = chunks[0]?.text;
    if (recycleText && text !== undefined) spares.text.push(text.buffer as ArrayBuffer);
  };
  try {
    for await (const t of tasks) {
      run(t);
      if (inFlight.length >= maxInFlight) yield* next();
    }
    while (inFlight.length > 0) yield* next();
  } finally {
    await Promise.allSettled(inFlight);
  }
}
