/** Warm, in-process throughput: decode a file repeatedly with one pool for a time budget. */
// The built code, as the CLI runs it (tsx-transpiled sources are slower in pool workers).
import { DecodePool, parseEvtx } from '../dist/src/index.js';

export async function steadyState(file: string, threads: number, budgetMs: number) {
  const pool = threads > 0 ? new DecodePool(threads) : undefined;
  const pass = async () => {
    const parse = parseEvtx(file, { threads, ...(pool ? { pool } : {}), outputs: ['json'], batchText: true });
    let records = 0;
    for await (const c of parse.chunks()) records += c.recordCount;
    return records;
  };
  try {
    await pass(); // warm-up: JIT and compiled templates
    let records = 0;
    let passes = 0;
    const started = performance.now();
    while (performance.now() - started < budgetMs) {
      records += await pass();
      passes++;
    }
    const s = (performance.now() - started) / 1000;
    return { passes, records, recordsPerSec: Math.round(records / s) };
  } finally {
    await pool?.close();
  }
}
