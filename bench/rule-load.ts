/**
 * Loading the SigmaHQ rules/ set from the rule cache (issue 46, acceptance 4: at most 0.5 s),
 * through the CLI's path (`tae sigma --rule DIR`) and a parse job's (the engine's community
 * rules, from a library `tae rules add DIR` filled), each load in a fresh process over the built
 * code with the CLI's V8 flags (bench/rule-load-child.mjs): cold (an empty cache: parse, build, write), then
 * warm (--runs loads: median, min, max). The CLI's cold process then matches the corpus's
 * events and keeps what its rule set learnt, so that warm loads read that file as they do after
 * any real run. One JSON object per line; skipped (exit 0) without the corpus; needs
 * `npm run build` first (`npm run bench` does).
 *   node --import tsx bench/rule-load.ts [--runs N] [--keep]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRuleLibrary } from '../src/rules/index.js';
import { corpusEvtxFiles, hasCorpus } from '../test/helpers/corpus.js';
import { SIGMA_DIR } from '../test/helpers/sigma-corpus.js';
import { benchArgs, numberArg } from './args.js';

const USAGE = `
usage: node --import tsx bench/rule-load.ts [--runs N] [--keep]
  --runs N   warm loads per path, each in a fresh process (default 5)
  --keep     keep the cache and data directories (their path is printed on stderr)
One JSON object per path (cli, job): cold and warm load times in ms, target 500.`;
const { values } = benchArgs(USAGE, {
  options: { runs: { type: 'string', default: '5' }, keep: { type: 'boolean', default: false } },
});
const RUNS = numberArg('--runs', values.runs, { min: 1, integer: true });
const RULES = join(SIGMA_DIR, 'rules');

const CHILD = join(import.meta.dirname, 'rule-load-child.mjs');

if (!hasCorpus || !existsSync(RULES)) {
  console.error('bench rule-load: corpus not found; skipped');
  process.exit(0);
}
if (!existsSync(join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'sigma-rules.js'))) {
  console.error('bench rule-load: run `npm run build` first (npm run bench does)');
  process.exit(2);
}

/** As src/cli/program.ts runs the analysing commands: its V8 flags and its re-execution's young generation. */
const CLI_FLAGS = [
  '--max-semi-space-size=16',
  '--heap-growing-percent=25',
  '--no-allocation-site-pretenuring',
  '--incremental-marking-soft-trigger=70',
  '--incremental-marking-hard-trigger=95',
];

interface Load {
  readonly ms: number;
  readonly mainCpuMs: number;
  readonly cpuMs: number;
  readonly rules: number;
}

function load(job: { path: 'cli' | 'job'; dir: string; learn?: readonly string[] }): Load {
  const r = spawnSync(process.execPath, [...CLI_FLAGS, CHILD], {
    env: { ...process.env, TAE_RULE_LOAD: JSON.stringify({ ...job, rules: RULES }), TAE_DEBUG: '' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bench rule-load: the ${job.path} load failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n')[0]!) as Load;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};

const root = mkdtempSync(join(tmpdir(), 'tae-bench-rule-load-'));
try {
  for (const path of ['cli', 'job'] as const) {
    const dir = join(root, path);
    if (path === 'job') {
      const library = await openRuleLibrary({ dataDir: dir, env: {} });
      try {
        await library.addPack(RULES);
      } finally {
        library.close();
      }
    }
    const cold = load({ path, dir, ...(path === 'cli' ? { learn: corpusEvtxFiles(8 << 20) } : {}) });
    const warm = Array.from({ length: RUNS }, () => load({ path, dir }));
    const ms = warm.map((w) => w.ms);
    console.log(
      JSON.stringify({
        bench: 'rule-load',
        name: path,
        rules: cold.rules,
        coldMs: cold.ms,
        warmMs: median(ms),
        warmMinMs: Math.min(...ms),
        warmMaxMs: Math.max(...ms),
        warmMainCpuMs: median(warm.map((w) => w.mainCpuMs)),
        warmCpuMs: median(warm.map((w) => w.cpuMs)),
        runs: RUNS,
        target: 500,
      }),
    );
  }
} finally {
  if (values.keep) console.error(`bench rule-load: kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
