/**
 * A full collection that gives memory back, where the process allows one (`globalThis.gc`: the
 * CLI's one-shot analysing commands expose it, see cli/program.ts; a library user's process or
 * `tae serve` do not, and then this does nothing). A finished analysis leaves its state as
 * garbage in a heap that V8 grows lazily, and the job then completes its index on other threads
 * and reads its result back. The collection is V8's last-resort flavour, which also shrinks the
 * young generation the analysis grew: the 1 GB private job's CLI process peaked at 456–472 MiB
 * after a plain collection and at 434–449 MiB after this one, in the same time (alternated).
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc === 'function') gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
