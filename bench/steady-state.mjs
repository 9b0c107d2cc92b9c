/**
 * Warm, in-process throughput: decode a file repeatedly with one pool for a time budget.
 *   node bench/steady-state.mjs FILE THREADS BUDGET_MS  → one JSON object on stdout
 * Plain JavaScript over the built code, run without tsx: under tsx's loader hooks pool workers
 * run the same code about 1.8× slower (measured), which would understate the workers.
 */
import { DecodePool, parseEvtx } from '../dist/src/index.js';

const [file, threadsText, budgetText] = process.argv.slice(2);
const threads = Number(threadsText);
const budgetMs = Number(budgetText);
const pool = threads > 0 ? new DecodePool(threads) : undefined;
const pass = async () => {
  const parse = parseEvtx(file, {
    threads,
    ...(pool ? { pool } : {}),
    outputs: ['json'],
    batchText: true,
    recycleText: true,
  });
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
  console.log(JSON.stringify({ passes, records, recordsPerSec: Math.round(records / s) }));
} finally {
  await pool?.close();
}
