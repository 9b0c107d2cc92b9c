import { Piscina } from 'piscina';
import { debugLine } from '../errors/index.js';

export type ThreadPoolOptions = NonNullable<ConstructorParameters<typeof Piscina>[0]>;

/**
 * A piscina pool with a listener on its `error` event. Piscina reports there what belongs to no
 * task: the result of a task already cancelled (an abort terminates the worker, yet a result
 * it had posted is still delivered: measured, 2 cancels in 100 with two workers), a worker that
 * died between tasks (piscina replaces it), a close past its timeout. None of them loses a
 * caller's work, since every task has settled by then, but an `error` event without a listener
 * is thrown, and from a message handler that ends the process.
 */
export function threadPool(options: ThreadPoolOptions): Piscina {
  const pool = new Piscina(options);
  pool.on('error', noteUnowned);
  return pool;
}

/** Nothing to recover; with $TAE_DEBUG set (the CLI's debug lines) it is said on stderr. */
function noteUnowned(e: unknown): void {
  debugLine(`worker pool: ${(e as Error)?.message ?? e}`);
}
