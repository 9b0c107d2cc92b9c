/**
 * Warm, in-process throughput: decode a file repeatedly with one pool for a time budget.
 *   node bench/steady-state.mjs FILE THREADS BUDGET_MS  → one JSON object on stdout
 * (records/s when warm, and the times of the first, cold pass and of a warm pass)
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
  const cold = performance.now();
  await pass(); // warm-up: JIT and compiled templates
  const firstPassMs = Math.round(performance.now() - cold);
  let records = 0;
  let passes = 0;
  const started = performance.now();
  while (performance.now() - started < budgetMs) {
    records += await pass();
    passes++;
  }
  const s = (performance.now() - started) / 1000;
  const passMs = Math.round((s * 1000) / passes);
  console.log(
    JSON.stringify({ passes, records, recordsPerSec: Math.round(records / s), firstPassMs, passMs }),
  );
} finally {
  await pool?.close();
}
