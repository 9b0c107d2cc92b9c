/**
 * The decode pool: piscina worker threads fed with transferred 64 KiB chunks. In-flight
 * work is bounded (2 × threads) and results come back in file order.
 */
import { Piscina } from 'piscina';
import type { DecodedChunk, DecodeTask } from '../evtx/index.js';
import type { RawChunk } from './chunks.js';
import type { DecodeWorkerTask } from './decode-worker.js';

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

  run(chunk: RawChunk, task: DecodeTask, signal?: AbortSignal): Promise<DecodedChunk> {
    const own = chunk.bytes.byteOffset === 0 && chunk.bytes.byteLength === chunk.bytes.buffer.byteLength;
    const bytes = (own ? chunk.bytes : chunk.bytes.slice()).buffer as ArrayBuffer;
    const message: DecodeWorkerTask = { ...task, bytes, byteLength: chunk.bytes.byteLength };
    return this.piscina.run(message, { transferList: [bytes], ...(signal ? { signal } : {}) });
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

/** Runs chunks through the pool keeping at most `maxInFlight` outstanding, yielding in input order. */
export async function* orderedDecode(
  chunks: AsyncIterable<RawChunk>,
  pool: DecodePool,
  taskFor: (c: RawChunk) => DecodeTask,
  maxInFlight: number,
  signal?: AbortSignal,
): AsyncGenerator<DecodedChunk> {
  const inFlight: Promise<DecodedChunk>[] = [];
  try {
    for await (const c of chunks) {
      const p = pool.run(c, taskFor(c), signal);
      p.catch(() => {}); // observed when its turn comes; avoids an unhandled rejection meanwhile
      inFlight.push(p);
      if (inFlight.length >= maxInFlight) yield await inFlight.shift()!;
    }
    while (inFlight.length > 0) yield await inFlight.shift()!;
  } finally {
    await Promise.allSettled(inFlight);
  }
}
