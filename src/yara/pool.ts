/**
 * The YARA worker pool (piscina). Workers keep deserialized rules between tasks, so the pool
 * lives as long as its engine; idle workers do not keep the process alive. A worker's heap
 * is capped so that a rule producing millions of matches fails one task, not the process.
 */
import type { Piscina } from 'piscina';
import { TaeError } from '../errors/index.js';
import { threadPool } from '../threads/index.js';
import type {
  CompileTask,
  CompileTaskResult,
  ScanBatchTask,
  ScanBatchTaskResult,
  ScanTask,
  ScanTaskResult,
  YaraTask,
} from './protocol.js';

/** Under tsx the sources run as .ts; the built package runs the compiled .js next to this file. */
const workerUrl = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Old-generation heap per worker, in MB. */
const WORKER_HEAP_MB = 2048;

export class YaraPool {
  private readonly piscina: Piscina;

  constructor(readonly threads: number) {
    this.piscina = threadPool({
      filename: workerUrl.href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  compile(task: CompileTask, signal?: AbortSignal): Promise<CompileTaskResult> {
    return this.run(task, signal) as Promise<CompileTaskResult>;
  }

  scan(task: ScanTask, signal?: AbortSignal): Promise<ScanTaskResult> {
    return this.run(task, signal) as Promise<ScanTaskResult>;
  }

  scanBatch(task: ScanBatchTask, signal?: AbortSignal): Promise<ScanBatchTaskResult> {
    return this.run(task, signal) as Promise<ScanBatchTaskResult>;
  }

  /** A worker that dies (out of memory) fails its task as data; an abort becomes CANCELLED. */
  private async run(
    task: YaraTask,
    signal?: AbortSignal,
  ): Promise<CompileTaskResult | ScanTaskResult | ScanBatchTaskResult> {
    try {
      return await this.piscina.run(task, signal ? { signal } : {});
    } catch (e) {
      if (signal?.aborted) throw new TaeError('CANCELLED', 'YARA task cancelled', { cause: signal.reason });
      return { kind: 'failed', message: `YARA worker failed: ${(e as Error).message}`, crashed: true };
    }
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}
