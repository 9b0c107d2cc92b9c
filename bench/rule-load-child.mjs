/**
 * One load of the SigmaHQ rules/ set in a fresh process, for bench/rule-load.ts, which passes
 * what to do in TAE_RULE_LOAD (JSON). `cli` loads as `tae sigma --rule DIR` does
 * (src/cli/sigma-rules.ts); `job` as a parse job with run_sigma_rules does (the engine's
 * community rules: the packs `tae rules add` indexed, and the builtin one; src/service/
 * community.ts). Prints one JSON object: the load's wall time, its main thread's CPU and the
 * process's CPU. With `learn` (a list of EVTX files), the rules then match their events and keep
 * what they learnt, as a first `tae sigma` run does, so that later loads read that file too.
 * Plain JavaScript over the built code, run without tsx: under tsx's loader the same load took
 * 250-300 ms longer (measured), which is not what a user's `tae` does.
 */
import { loadSigmaRules } from '../dist/src/cli/sigma-rules.js';
import { parseEvtx } from '../dist/src/parse/index.js';
import { Community } from '../dist/src/service/community.js';
import { sigmaEventFromEvtx } from '../dist/src/sigma/index.js';

const job = JSON.parse(process.env.TAE_RULE_LOAD ?? '{}');

const load = async () => {
  if (job.path === 'cli') return loadSigmaRules({ ruleFiles: [job.rules], cache: job.dir });
  const sigma = await new Community({ dataDir: job.dir, env: {} }).sigma();
  return { ...sigma, finish: () => {} };
};

const ms = (micros) => Math.round((micros.user + micros.system) / 1000);
const [start, cpu, main] = [performance.now(), process.cpuUsage(), process.threadCpuUsage()];
const loaded = await load();
console.log(
  JSON.stringify({
    ms: Math.round(performance.now() - start),
    mainCpuMs: ms(process.threadCpuUsage(main)),
    cpuMs: ms(process.cpuUsage(cpu)),
    rules: loaded.loaded.rules.length,
  }),
);
if (job.learn !== undefined) {
  for (const f of job.learn) {
    try {
      for await (const r of parseEvtx(f, { outputs: ['event'] }))
        if (r.event) loaded.ruleSet.match(sigmaEventFromEvtx(r.event));
    } catch {
      // A file the decoder refuses as a whole is a conformance matter, not a bench one.
    }
  }
  loaded.finish();
}
