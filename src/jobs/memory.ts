/**
 * A full collection where the process allows one (`globalThis.gc`: the CLI's one-shot analysing
 * commands expose it, see cli/main.ts; a library user's process or `tae serve` do not, and then
 * this does nothing). A finished analysis leaves its state as garbage in a heap that V8 grows
 * lazily, and the job then completes its index on other threads and reads its result back: the
 * 1 GB job's CLI process peaked at 505–511 MiB at that point without a collection.
 */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc === 'function') gc();
}
