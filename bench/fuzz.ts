/**
 * `npm run fuzz [-- --seconds N --seed S]`: mutates corpus files for a time budget and decodes
 * each mutant in a worker watched for hangs. Prints one JSON line; exits 1 on any crash or
 * hang, saving the offending input under .fuzz-out/ so it can be replayed.
 * `--mode differential`: instead, writes generated logs (fixtures/varied-events.ts, seeds S,
 * S+1, …, 10,000 records each) and compares the compiled renderers with the tree renderers on
 * every record for the time budget (npm test does one seed); exits 1 on a difference, printing
 * it with its seed. Needs no corpus.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadPool } from '../src/threads/index.js';
import { corpusEvtxFiles } from '../test/helpers/corpus.js';
import { MUTATIONS, mutate, rng } from '../test/helpers/mutate.js';
import { compareGenerated, newTally } from '../test/helpers/renderer-differential.js';
import { benchArgs, numberArg, refuse } from './args.js';
import type { FuzzJob, FuzzOutcome } from './fuzz-worker.js';

const HANG_MS = 20_000;
const USAGE = `
usage: npm run fuzz -- [--seconds N] [--seed S] [--mode mutate|differential]
  --seconds N   time budget (default 60)
  --seed S      first seed, an integer (default 1)
  --mode M      mutate: corpus files mutated and decoded in a watched worker (default);
                differential: generated logs, compiled against tree renderers (no corpus)
Prints one JSON line; exits 1 on a crash, hang or difference (inputs saved under .fuzz-out/).`;
const { values } = benchArgs(USAGE, {
  options: {
    seconds: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    mode: { type: 'string', default: 'mutate' },
  },
});
const budgetMs = numberArg('--seconds', values.seconds) * 1000;
numberArg('--seed', values.seed, { min: -Infinity, integer: true });
if (values.mode !== 'mutate' && values.mode !== 'differential')
  refuse(`--mode is mutate or differential, not ${JSON.stringify(values.mode)}`);
if (values.mode === 'differential') differential();

function differential(): never {
  const RECORDS_PER_SEED = 10_000;
  const t = newTally();
  const started = Date.now();
  let seed = Number(values.seed);
  let seeds = 0;
  while (Date.now() - started < budgetMs && t.mismatches.length === 0) {
    compareGenerated(seed++, 0, RECORDS_PER_SEED, t);
    seeds++;
  }
  for (const m of t.mismatches) console.error(`fuzz: compiled and tree renderers differ, ${m}`);
  console.log(
    JSON.stringify({
      differential: { seeds, firstSeed: Number(values.seed), ...t, mismatches: t.mismatches.length },
    }),
  );
  process.exit(t.mismatches.length > 0 ? 1 : 0);
}

const files = corpusEvtxFiles(8 * 1024 * 1024);
if (files.length === 0) {
  console.error('fuzz: no corpus found; nothing to mutate');
  process.exit(2);
}

const newPool = () =>
  threadPool({ filename: new URL('./fuzz-worker.ts', import.meta.url).href, maxThreads: 1, minThreads: 1 });
let pool = newPool();
const pick = rng(Number(values.seed));
const stats = {
  runs: 0,
  ok: 0,
  codedErrors: 0,
  crashes: 0,
  hangs: 0,
  files: files.length,
  seconds: Number(values.seconds),
};

function save(job: FuzzJob, what: string, detail: string): void {
  mkdirSync('.fuzz-out', { recursive: true });
  const name = join('.fuzz-out', `${what}-${job.kind}-${job.seed}.evtx`);
  writeFileSync(name, mutate(readFileSync(job.file), job.kind, job.seed));
  console.error(`fuzz: ${what} on ${job.file} (${job.kind}, seed ${job.seed}) saved as ${name}\n${detail}`);
}

const started = Date.now();
while (Date.now() - started < budgetMs) {
  const job: FuzzJob = {
    file: files[Math.floor(pick() * files.length)]!,
    kind: MUTATIONS[Math.floor(pick() * MUTATIONS.length)]!,
    seed: Math.floor(pick() * 2 ** 31),
  };
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), HANG_MS);
  });
  const outcome = await Promise.race([pool.run(job) as Promise<FuzzOutcome>, hang]);
  clearTimeout(timer);
  stats.runs++;
  if (outcome === 'hang') {
    stats.hangs++;
    save(job, 'hang', `no answer within ${HANG_MS} ms`);
    await pool.destroy(); // terminates the stuck thread
    pool = newPool();
  } else if (outcome.kind === 'crash') {
    stats.crashes++;
    save(job, 'crash', outcome.stack);
  } else if (outcome.kind === 'ok') stats.ok++;
  else stats.codedErrors++;
}
await pool.destroy();
console.log(JSON.stringify({ fuzz: stats }));
process.exit(stats.crashes + stats.hangs > 0 ? 1 : 0);
