/**
 * `npm run bench`: decoding throughput on the 81 MB corpus file and the whole corpus, for the
 * main thread, 1 and 2 workers, against libevtx's evtxexport, @ts-evtx/core and python-evtx
 * measured in the same run; thread scaling on 1 GiB; the ceilings this machine sets on those
 * ratios (`ceilings`); and peak memory on a 1 GB generated file. One JSON object per
 * line on stdout; the last line holds the ratios. Options: --runs N, --only NAME, --skip-peers,
 * --quick (the job bench on 100 MB only).
 * The other subsystems have their own scripts (`bench/<name>.ts`, one JSON object per line),
 * run here one after another in child processes so that their heaps do not meet.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusEvtxFiles, EVTX_DIR, hasCorpus } from '../test/helpers/corpus.js';
import { benchArgs, numberArg, refuse } from './args.js';
import { BIG, BIG_RECORDS, CLI, emit, evtxexport, generated, report, results } from './decode-report.js';
import { commandExists, median, timeProcess } from './measure.js';
import { ceilingsBench, scaleBench } from './scaling.js';

/** Benches with their own script under bench/, selected with --only NAME like the others. */
const SUBSYSTEMS = [
  'sigma',
  'rule-load',
  'yara',
  'lookup',
  'analysis',
  'search',
  'search-files',
  'service',
  'job',
  'spread',
];
const BENCHES = ['decode', 'scale', 'ceilings', 'corpus', 'memory', ...SUBSYSTEMS];
const USAGE = `
usage: npm run bench -- [--runs N] [--only NAME] [--skip-peers] [--quick]
  --runs N       timed runs per measurement, the median reported (default 3)
  --only NAME    one bench: ${BENCHES.join(', ')}
  --skip-peers   do not time evtxexport, @ts-evtx/core or python-evtx
  --quick        the job bench on 100 MB only
One JSON object per line on stdout; the last line holds the ratios.`;
const { values: opts } = benchArgs(USAGE, {
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'skip-peers': { type: 'boolean' },
    quick: { type: 'boolean' },
  },
});
const RUNS = numberArg('--runs', opts.runs, { min: 1, integer: true });
// A misspelt name would otherwise run nothing and say nothing.
if (opts.only !== undefined && !BENCHES.includes(opts.only))
  refuse(`--only takes one of ${BENCHES.join(', ')}, not ${JSON.stringify(opts.only)}`);
const want = (name: string) => opts.only === undefined || opts.only === name;

async function decodeBench(): Promise<void> {
  const size = statSync(BIG).size;
  const ours = (cpus: string, threads: number, format: string) =>
    median(RUNS, () =>
      timeProcess('node', [CLI, 'parse', '-q', '-t', String(threads), '-f', format, BIG], {
        cpus,
        discard: true,
      }),
    );
  const xml1 = report(
    '81MB',
    'tae parse -f xml, main thread, 1 core',
    await ours('0', 0, 'xml'),
    BIG_RECORDS,
    size,
  );
  const jsonl1 = report(
    '81MB',
    'tae parse -f jsonl, main thread, 1 core',
    await ours('0', 0, 'jsonl'),
    BIG_RECORDS,
    size,
  );
  const w1 = report(
    '81MB',
    'tae parse -f jsonl, 1 worker, 2 cores',
    await ours('0,1', 1, 'jsonl'),
    BIG_RECORDS,
    size,
  );
  const w2 = report(
    '81MB',
    'tae parse -f jsonl, 2 workers, 2 cores',
    await ours('0,1', 2, 'jsonl'),
    BIG_RECORDS,
    size,
  );
  results.workers2VsWorker1 = Number((w1 / w2).toFixed(2));
  for (const threads of [0, 1, 2]) {
    const child = spawnSync(
      process.execPath,
      [join(import.meta.dirname, 'steady-state.mjs'), BIG, String(threads), '3000'],
      { encoding: 'utf8' },
    );
    const s = JSON.parse(child.stdout.trim() || '{"recordsPerSec":null}') as { recordsPerSec: number | null };
    emit({
      bench: '81MB',
      name: `steady state (warm), ${threads === 0 ? 'main thread' : `${threads} worker(s)`}`,
      ...s,
    });
    results[`steadyRecordsPerSec_t${threads}`] = s.recordsPerSec;
  }
  results.steady2VsSteady1 = Number(
    ((results.steadyRecordsPerSec_t2 as number) / (results.steadyRecordsPerSec_t1 as number)).toFixed(2),
  );
  if (opts['skip-peers']) return;
  const ee = await evtxexport('81MB', RUNS);
  if (ee !== null) {
    results.xmlVsEvtxexport = Number((ee / xml1).toFixed(2));
    results.jsonlVsEvtxexport = Number((ee / jsonl1).toFixed(2));
  } else results.xmlVsEvtxexport = 'evtxexport not installed (apt-get install libevtx-utils)';
  const capMs = 60_000;
  const ts = await timeProcess('node', [join(import.meta.dirname, 'peers', 'ts-evtx.mjs'), BIG], {
    cpus: '0',
    env: { DEADLINE_MS: String(capMs) },
  });
  const tsOut = JSON.parse(ts.stdout.trim() || '{"records":0}') as { records: number; capped: boolean };
  report(
    '81MB',
    `@ts-evtx/core renderXml, 1 core${tsOut.capped ? ` (stopped after ${capMs / 1000} s)` : ''}`,
    ts,
    tsOut.records,
    size * (tsOut.records / BIG_RECORDS),
  );
  results.xmlVsTsEvtx = Number(
    (tsOut.records / (ts.wallMs / 1000) / (BIG_RECORDS / (xml1 / 1000))) ** -1,
  ).toFixed(1);
  const python = pythonWithEvtx();
  if (python === null)
    emit({
      bench: '81MB',
      name: 'python-evtx xml: skipped, no python3 here imports Evtx (Debian: python3-evtx)',
    });
  else {
    const py = await timeProcess(python, [join(import.meta.dirname, 'peers', 'python-evtx.py'), BIG], {
      cpus: '0',
      env: { DEADLINE_MS: '20000' },
    });
    const pyOut = JSON.parse(py.stdout.trim() || '{"records":0}') as { records: number; capped: boolean };
    if (py.exitCode === 0) {
      report(
        '81MB',
        `python-evtx xml, 1 core${pyOut.capped ? ' (stopped after 20 s)' : ''}`,
        py,
        pyOut.records,
        size * (pyOut.records / BIG_RECORDS),
      );
      results.xmlVsPythonEvtx = Number(
        (BIG_RECORDS / (xml1 / 1000) / (pyOut.records / (py.wallMs / 1000))).toFixed(0),
      );
    }
  }
}

/**
 * The first of `python3` on PATH and the system's own that imports python-evtx: Debian's
 * python3-evtx installs it for /usr/bin/python3, which a pyenv or venv python3 first on PATH
 * does not see (the peer was then skipped without a word).
 */
function pythonWithEvtx(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(python, ['-c', 'import Evtx.Evtx'], { stdio: 'ignore' });
    if (r.status === 0) return python;
  }
  return null;
}

async function corpusBench(): Promise<void> {
  const files = corpusEvtxFiles();
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const records = 43058;
  const run = (threads: number, cpus: string) =>
    median(RUNS, () =>
      timeProcess('node', [CLI, 'parse', '-q', '-t', String(threads), '-f', 'jsonl', ...files], {
        cpus,
        discard: true,
      }),
    );
  const c0 = report(
    'corpus',
    `tae parse -f jsonl, ${files.length} files, main thread, 1 core`,
    await run(0, '0'),
    records,
    bytes,
  );
  const c2 = report(
    'corpus',
    `tae parse -f jsonl, ${files.length} files, 2 workers, 2 cores`,
    await run(2, '0,1'),
    records,
    bytes,
  );
  results.corpus2WorkersVsMain = Number((c0 / c2).toFixed(2));
  if (opts['skip-peers']) return;
  if (await commandExists('evtxexport')) {
    const list = files.map((f) => `'${f.replaceAll("'", "'\\''")}'`).join(' ');
    const ee = report(
      'corpus',
      'libevtx evtxexport -f xml, one process per file, 1 core',
      await median(1, () =>
        timeProcess('sh', ['-c', `for f in ${list}; do evtxexport -f xml "$f"; done`], {
          cpus: '0',
          discard: true,
        }),
      ),
      records,
      bytes,
    );
    results.corpusVsEvtxexport = Number((ee / c0).toFixed(2));
  }
  const ts = await timeProcess('node', [join(import.meta.dirname, 'peers', 'ts-evtx.mjs'), ...files], {
    cpus: '0',
    env: { DEADLINE_MS: '120000' },
  });
  const tsOut = JSON.parse(ts.stdout.trim() || '{"records":0}') as { records: number };
  const tsMs = report('corpus', '@ts-evtx/core renderXml, 1 core', ts, tsOut.records, bytes);
  results.corpusVsTsEvtx = Number((tsMs / c0).toFixed(2));
}

async function memoryBench(): Promise<void> {
  const big = await generated('tae-bench-1GB.evtx', []);
  if (big === null) {
    emit({ bench: 'memory', error: 'could not generate the 1 GB file' });
    return;
  }
  const size = statSync(big).size;
  for (const threads of [0, 2]) {
    const t = await timeProcess('node', [CLI, 'parse', '-q', '-t', String(threads), '--summary', big], {
      discard: true,
    });
    report(
      '1GB',
      `tae parse --summary, ${threads === 0 ? 'main thread' : `${threads} workers`} (${(size / 2 ** 30).toFixed(2)} GiB)`,
      t,
      Number.NaN,
      size,
    );
    results[`peakRssMiB_1GB_t${threads}`] = t.peakRssKb === null ? null : Math.round(t.peakRssKb / 1024);
  }
}

if (!existsSync(CLI)) {
  console.error('bench: run `npm run build` first (npm run bench does)');
  process.exit(2);
}
if (!hasCorpus) console.error(`bench: corpus not found at ${EVTX_DIR}; only the memory bench runs`);
if (hasCorpus && want('decode')) await decodeBench();
if (hasCorpus && want('scale')) await scaleBench(RUNS);
if (hasCorpus && want('ceilings')) await ceilingsBench(RUNS);
if (hasCorpus && want('corpus')) await corpusBench();
if (want('memory')) await memoryBench();
for (const name of SUBSYSTEMS) {
  const script = join(import.meta.dirname, `${name}.ts`);
  if (!want(name) || !existsSync(script)) continue;
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: opts.quick ? { ...process.env, TAE_BENCH_JOB_QUICK: '1' } : process.env,
  });
  if (r.status !== 0) results[`${name}_failed`] = `exit ${r.status ?? r.signal}`;
}
emit({ summary: results });
