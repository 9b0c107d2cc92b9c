/**
 * The decode pool: piscina worker threads, each task a span of chunks. In-flight work is
 * bounded (2 × threads) and results come back in file order.
 */
import { Piscina } from 'piscina';
import type { DecodedChunk } from '../evtx/index.js';
import type { SpanTask } from './decode-worker.js';

/** Under tsx the sources run as .ts; the built package runs the compiled .js next to this file. */
const workerUrl = new URL(
  `./decode-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

export class DecodePool {
  private readonly piscina: Piscina;

  constructor(readonly threads: number) {
    this.piscina = new Piscina({
      filename: workerUrl.href,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 30_000,
    });
  }

  run(task: SpanTask, signal?: AbortSignal): Promise<DecodedChunk[]> {
    const transferList = task.kind === 'bytes' ? [task.bytes] : [];
    return this.piscina.run(task, { transferList, ...(signal ? { signal } : {}) });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

/** Runs span tasks keeping at most `maxInFlight` outstanding, yielding chunks in input order. */
export async function* orderedDecode(
  tasks: AsyncIterable<SpanTask> | Iterable<SpanTask>,
  pool: DecodePool,
  maxInFlight: number,
  signal?: AbortSignal,
): AsyncGenerator<DecodedChunk> {
  const inFlight: Promise<DecodedChunk[]>[] = [];
  try {
    for await (const t of tasks) {
      const p = pool.run(t, signal);
      p.catch(() => {}); // observed when its turn comes; avoids an unhandled rejection meanwhile
      inFlight.push(p);
      if (inFlight.length >= maxInFlight) yield* await inFlight.shift()!;
    }
    while (inFlight.length > 0) yield* await inFlight.shift()!;
  } finally {
    await Promise.allSettled(inFlight);
  }
}
