/**
 * One public parse job with the community Sigma rules, in this process, with or without its event
 * index (bench/job.ts `--index-share`): the same engine and runner but for the `index` option,
 * so that the difference is what the index costs. Prints {wallMs, cpuMs, status} as one line.
 *   node --import tsx bench/job-index-share.ts index|none <file.evtx>...
 */
import { readFileSync } from 'node:fs';
import { createWinevtxRunner } from '../src/jobs/index.js';
import { pipelinePool } from '../src/pipeline/index.js';
import { Community } from '../src/service/community.js';
import { Engine } from '../src/service/index.js';
import { benchArgs, refuse } from './args.js';

const USAGE = `
usage: node --import tsx bench/job-index-share.ts index|none FILE.evtx...
  index   the job writes its event index (the Engine's default)
  none    the same job without one
Prints {wallMs, cpuMs, status} as one line.`;
const [mode, ...paths] = benchArgs(USAGE, { allowPositionals: true }).positionals;
if (mode !== 'index' && mode !== 'none') refuse(`the mode is index or none, not ${JSON.stringify(mode)}`);
if (paths.length === 0) refuse('no EVTX file named');
// Both modes decode on the same threads, whatever the machine (the engine's default is its cores).
const DECODE_THREADS = 2;
const pool = pipelinePool(DECODE_THREADS);
const sigma = await new Community({ dataDir: false }).sigma();
const engine = await Engine.open({
  memory: true,
  decodeThreads: DECODE_THREADS,
  // Without an `index` option the runner writes no event index; the default runner writes one.
  ...(mode === 'none'
    ? { runners: { winevtx: createWinevtxRunner({ sigma: () => sigma, pool: () => pool }) } }
    : {}),
});
const up = await engine.upload({
  files: paths.map((p, i) => ({ name: `f${i}.evtx`, data: readFileSync(p) })),
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const job = await engine.createParseJob({ file_ids: up.file_ids.map((f) => f[0]), run_sigma_rules: true });
let status = (await engine.getJob({ job_id: job.id })).status;
while (status === 'Pending' || status === 'Processing') {
  await new Promise((r) => setTimeout(r, 100));
  status = (await engine.getJob({ job_id: job.id })).status;
}
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({
    wallMs: Math.round(performance.now() - t0),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    status,
  }),
);
await engine.close();
await pool.close();
