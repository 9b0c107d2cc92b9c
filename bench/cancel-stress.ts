/**
 * `npm run stress [-- --seconds N --seed S]`: cancellation and shutdown at random moments, for a
 * time budget. Each round opens an Engine on a fresh data directory (private files every other
 * round), uploads two generated logs, starts three parse jobs (Sigma, none, Sigma and payload
 * YARA) on a two-thread decode pool, then at random moments cancels one, deletes one, cancels up
 * to five pooled library parses part way, and closes the engine whether or not the jobs are done.
 * Prints one JSON line; exits 1 when anything escaped (an uncaught exception, an unhandled
 * rejection), a job never settled, or a closed engine left build files behind (staging, block,
 * journal files). Nothing needs the corpus: the logs come from fixtures/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { randomEvents } from '../fixtures/large-events.js';
import { prng } from '../fixtures/prng.js';
import { type Auth, Engine } from '../src/entry/service.js';
import { parseEvtx } from '../src/index.js';
import { allFiles } from '../test/helpers/marker-scan.js';
import { benchArgs, numberArg } from './args.js';

const USAGE = `
usage: npm run stress -- [--seconds N] [--seed S]
  --seconds N   time budget (default 120)
  --seed S      seed of the random moments and logs, an integer (default 1)
Prints one JSON line; exits 1 when anything escaped, a job never settled or build files were left.`;
const { values } = benchArgs(USAGE, {
  options: { seconds: { type: 'string', default: '120' }, seed: { type: 'string', default: '1' } },
});
const budgetMs = numberArg('--seconds', values.seconds) * 1000;
numberArg('--seed', values.seed, { min: -Infinity, integer: true });
const pick = prng(Number(values.seed));
const escaped: string[] = [];
process.on('uncaughtException', (e) => escaped.push(`uncaught: ${e.stack ?? e}`));
process.on('unhandledRejection', (e) => escaped.push(`unhandled rejection: ${(e as Error)?.stack ?? e}`));

/** 20,000 varied events, about 14 MB: past the size from which the engine decodes in its pool. */
const events = randomEvents(Number(values.seed));
const log = writeEvtx(Array.from({ length: 20_000 }, () => events.next().value));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SETTLE_MS = 120_000;
const stats = {
  rounds: 0,
  completed: 0,
  failed: 0,
  unsettled: 0,
  libraryParses: 0,
  leftovers: 0,
  escaped: 0,
};

async function libraryParseCancelled(): Promise<void> {
  const controller = new AbortController();
  const stopAt = 1 + Math.floor(pick() * 20_000);
  let n = 0;
  try {
    for await (const _ of parseEvtx(log, { threads: 2, signal: controller.signal }))
      if (++n === stopAt) controller.abort();
  } catch (e) {
    if ((e as { code?: string }).code !== 'CANCELLED') escaped.push(`library parse: ${(e as Error).stack}`);
  }
  stats.libraryParses++;
}

async function round(dir: string, privateFiles: boolean): Promise<void> {
  const engine = await Engine.open({ dataDir: dir, decodeThreads: 2 });
  try {
    const auth: Auth = privateFiles
      ? { token: (await engine.createToken()).token, encKey: 'stress key: correct horse battery' }
      : {};
    const uploaded = await engine.upload(
      {
        files: [
          { name: 'a.evtx', data: log },
          { name: 'b.evtx', data: log },
        ],
      },
      auth,
    );
    const file_ids = uploaded.file_ids.map(([id]) => id);
    const jobs: string[] = [];
    for (const [sigma, yara] of [
      [true, false],
      [false, false],
      [true, true],
    ] as const)
      jobs.push(
        (await engine.createParseJob({ file_ids, run_sigma_rules: sigma, run_yara_payloads: yara }, auth)).id,
      );
    await sleep(pick() * 1500);
    if (pick() < 0.6)
      await engine.cancelJob({ job_id: jobs[Math.floor(pick() * jobs.length)]! }, auth).catch(() => {});
    await sleep(pick() * 1500);
    if (pick() < 0.3) await engine.deleteJobs({ ids: [jobs[0]!] }, auth).catch(() => {});
    // Library parses cancelled at random records, beside the jobs (a cancel races the results).
    for (let k = Math.floor(pick() * 6); k > 0; k--) await libraryParseCancelled();
    // Three rounds in ten close the engine within two seconds, whatever the jobs are doing.
    const closeEarly = pick() < 0.3;
    const deadline = Date.now() + (closeEarly ? pick() * 2000 : SETTLE_MS);
    for (const job_id of jobs) {
      let settled = false;
      while (!settled && Date.now() < deadline) {
        const s = await engine.getJob({ job_id }, auth).catch(() => null); // null: deleted
        settled = s === null || s.status === 'Completed' || s.status === 'Failed';
        if (s?.status === 'Completed') stats.completed++;
        if (s?.status === 'Failed') stats.failed++;
        if (!settled) await sleep(20);
      }
      if (!settled && !closeEarly) stats.unsettled++;
    }
  } finally {
    await engine.close();
  }
}

const started = Date.now();
while (Date.now() - started < budgetMs) {
  const dir = mkdtempSync(join(tmpdir(), 'tae-stress-'));
  try {
    await round(dir, stats.rounds % 2 === 1);
    const left = allFiles(dir).filter((f) => /\.stage$|\.block-\d+$|-journal$|-wal$/.test(f));
    if (left.length > 0) {
      stats.leftovers++;
      console.error(`stress: round ${stats.rounds} left ${left.join(', ')}`);
    }
  } catch (e) {
    escaped.push(`round ${stats.rounds}: ${(e as Error).stack}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    stats.rounds++;
  }
}
stats.escaped = escaped.length;
for (const e of escaped.slice(0, 10)) console.error(`stress: ${e}`);
console.log(
  JSON.stringify({ stress: { ...stats, seconds: Number(values.seconds), seed: Number(values.seed) } }),
);
process.exit(stats.escaped + stats.unsettled + stats.leftovers > 0 ? 1 : 0);
