/**
 * How the work of each file-reading command would spread over more cores than this machine has
 * (issue 46, acceptance 3): per run, the wall and CPU time, peak RSS, and the whole process's
 * CPU against the CPU of its busiest thread that no pool replicates (bench/threads.ts's
 * spreadBound). Runs: `tae sigma` with the SigmaHQ rules and `tae parse` over the four 238 MiB
 * files of the job bench (the ratio of their medians is acceptance 2's), `tae analyze --sigma`
 * and `tae sigma` over the corpus's attack samples (593 small files), and the private job with
 * the builtin rules and with the SigmaHQ set added. One JSON object per line.
 *   node --import tsx bench/spread.ts [--only LIST] [--rounds N] [--base CLI] [--files LIST]
 * --base runs each measurement with another build's CLI too (e.g. one made from an older
 * commit), alternated with this one, for before/after figures on the same machine state.
 */
import { join } from 'node:path';
import { EVTX_DIR, hasCorpus } from '../test/helpers/corpus.js';
import { SIGMA_DIR } from '../test/helpers/sigma-corpus.js';
import { benchArgs, numberArg, refuse } from './args.js';
import { timeProcess } from './measure.js';
import { jobData, largeFiles } from './spread-setup.js';
import { spreadBound } from './threads.js';

const ROOT = join(import.meta.dirname, '..');
const TARGETS = ['sigma', 'parse', 'analyze-samples', 'sigma-samples', 'job-builtin', 'job-sigmahq'];
const USAGE = `
usage: node --import tsx bench/spread.ts [--only LIST] [--rounds N] [--base CLI] [--files LIST]
  --only LIST    comma-separated, of ${TARGETS.join(', ')} (default all)
  --rounds N     runs of each (default 1), the builds and targets alternated
  --base CLI     another build's dist/src/cli/main.js, run beside this one
  --files LIST   the large files (default the job bench's four 238 MiB files)
One JSON object per line: wall, CPU, peak RSS and the spread bound of each run, then medians.`;
const { values: opts } = benchArgs(USAGE, {
  options: {
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    base: { type: 'string' },
    files: { type: 'string' },
  },
});
const ROUNDS = numberArg('--rounds', opts.rounds, { min: 1, integer: true });
const only = opts.only?.split(',') ?? TARGETS;
for (const t of only) if (!TARGETS.includes(t)) refuse(`--only takes ${TARGETS.join(', ')}, not ${t}`);
if (!hasCorpus) refuse(`the corpus is needed (not found at ${EVTX_DIR})`);
const builds: Record<string, string> = {
  current: join(ROOT, 'dist', 'src', 'cli', 'main.js'),
  ...(opts.base === undefined ? {} : { base: opts.base }),
};
const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'spread', ...o }));
const SIGMAHQ = join(SIGMA_DIR, 'rules');
const SAMPLES = join(EVTX_DIR, 'hayabusa-sample-evtx');
const large = opts.files?.split(',') ?? largeFiles(ROOT);

/** Each target's command line after the CLI (a job's data directory is made per build once). */
async function argsOf(target: string, cli: string): Promise<string[]> {
  switch (target) {
    case 'sigma':
      return ['sigma', '-q', '--rule', SIGMAHQ, ...large];
    case 'parse':
      return ['parse', '-q', '-f', 'jsonl', ...large];
    case 'analyze-samples':
      return ['analyze', '-q', '--sigma', SAMPLES];
    case 'sigma-samples':
      return ['sigma', '-q', SAMPLES];
    default: {
      const { auth, ids } = await jobData(cli, target === 'job-sigmahq' ? SIGMAHQ : undefined, large);
      return ['jobs', 'parse', '--sigma', ...auth, '--json', ...ids];
    }
  }
}

const runs: Record<string, { wallMs: number; cpuMs: number; bound: number | null }[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  const names = round % 2 === 0 ? Object.keys(builds) : Object.keys(builds).reverse();
  for (const target of only)
    for (const build of names) {
      const cli = builds[build]!;
      const t = await timeProcess('node', [cli, ...(await argsOf(target, cli))], {
        discard: true,
        sampleCpuEveryMs: 100,
      });
      const spread = t.threads === undefined || t.cpuMs === null ? null : spreadBound(t.threads, t.cpuMs);
      const row = {
        name: `${target} (${build})`,
        exitCode: t.exitCode,
        wallMs: Math.round(t.wallMs),
        cpuMs: t.cpuMs,
        peakRssMiB: t.peakRssKb === null ? null : Math.round(t.peakRssKb / 1024),
        ...spread,
        cpuMsByGroup: t.threads?.byGroup(),
      };
      emit(row);
      const key = `${target} (${build})`;
      runs[key] = runs[key] ?? [];
      runs[key].push({
        wallMs: row.wallMs,
        cpuMs: t.cpuMs ?? Number.NaN,
        bound: spread?.bound ?? null,
      });
    }
}
const middle = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const medians = Object.fromEntries(
  Object.entries(runs).map(([k, r]) => [
    k,
    {
      wallMs: middle(r.map((x) => x.wallMs)),
      cpuMs: middle(r.map((x) => x.cpuMs)),
      bound: middle(r.map((x) => x.bound ?? Number.NaN)),
    },
  ]),
);
const ratio = (build: string) => {
  const s = medians[`sigma (${build})`];
  const p = medians[`parse (${build})`];
  return s && p ? Number((s.wallMs / p.wallMs).toFixed(2)) : undefined;
};
emit({
  summary: {
    rounds: ROUNDS,
    medians,
    sigmaVsParse: Object.fromEntries(Object.keys(builds).map((b) => [b, ratio(b)])),
  },
});
