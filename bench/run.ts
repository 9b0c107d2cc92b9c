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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { corpusEvtxFiles, EVTX_DIR, hasCorpus } from '../test/helpers/corpus.js';
import { commandExists, median, outputBytes, type Timed, timeProcess } from './measure.js';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'skip-peers': { type: 'boolean' },
    quick: { type: 'boolean' },
  },
});
const RUNS = Number(opts.runs);
const want = (name: string) => opts.only === undefined || opts.only === name;
const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const BIG = join(EVTX_DIR, 'bench', 'corpus-chunks-81MB.evtx');
const BIG_RECORDS = 39269;
const results: Record<string, number | string | null | object> = {};
/** Benches with their own script under bench/, selected with --only NAME like the others. */
const SUBSYSTEMS = ['sigma', 'yara', 'lookup', 'analysis', 'search', 'service', 'job'];

function emit(o: Record<string, unknown>): void {
  console.log(JSON.stringify(o));
}

function report(
  bench: string,
  name: string,
  t: Timed & { runsMs?: number[] },
  records: number,
  bytes: number,
): number {
  const s = t.wallMs / 1000;
  emit({
    bench,
    name,
    records,
    wallMs: Math.round(t.wallMs),
    runsMs: t.runsMs,
    recordsPerSec: Math.round(records / s),
    mbPerSec: Number((bytes / 1e6 / s).toFixed(1)),
    peakRssKb: t.peakRssKb,
    exitCode: t.exitCode,
  });
  return t.wallMs;
}

/** libevtx's `evtxexport -f xml` on the 81 MB file, 1 core: its median wall ms, reported; null when not installed. */
async function evtxexport(bench: string): Promise<number | null> {
  if (!(await commandExists('evtxexport'))) return null;
  const t = await median(RUNS, () =>
    timeProcess('evtxexport', ['-f', 'xml', BIG], { cpus: '0', discard: true }),
  );
  return report(bench, 'libevtx evtxexport -f xml, 1 core', t, BIG_RECORDS, statSync(BIG).size);
}

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
  const ee = await evtxexport('81MB');
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

/** A 1 GiB file in the temporary folder made by fixtures/generate-large.ts (kept for later runs). */
async function generated(name: string, args: readonly string[]): Promise<string | null> {
  const path = join(tmpdir(), name);
  if (existsSync(path)) return path;
  const script = join(import.meta.dirname, '..', 'fixtures', 'generate-large.ts');
  const gen = await timeProcess('node', ['--import', 'tsx', script, '--size', '1G', ...args, path], {});
  return gen.exitCode === 0 ? path : null;
}

/**
 * Thread scaling where threads matter: a 1 GiB file re-sequenced from the 81 MB corpus file
 * (same records and templates), so each worker's start-up (loading, JIT) is amortised as it
 * is on real large logs. On the 81 MB file that start-up is most of a 1 s run.
 */
async function scaleBench(): Promise<void> {
  const big = await generated('tae-bench-corpus-1GB.evtx', ['--from', BIG]);
  if (big === null) {
    emit({ bench: 'scale', error: 'could not generate the 1 GiB file' });
    return;
  }
  const size = statSync(big).size;
  const records = Math.round((BIG_RECORDS * size) / statSync(BIG).size);
  const run = (threads: number) =>
    median(RUNS, () =>
      timeProcess('node', [CLI, 'parse', '-q', '-t', String(threads), '-f', 'jsonl', big], {
        cpus: '0,1',
        discard: true,
        sampleCpuEveryMs: 100,
      }),
    );
  const label = `${(size / 2 ** 30).toFixed(2)} GiB re-sequenced from the 81 MB file, 2 cores`;
  const t0 = report('scale', `tae parse -f jsonl, main thread, ${label}`, await run(0), records, size);
  const one = await run(1);
  const t1 = report('scale', `tae parse -f jsonl, 1 worker, ${label}`, one, records, size);
  const two = await run(2);
  const t2 = report('scale', `tae parse -f jsonl, 2 workers, ${label}`, two, records, size);
  results.scale1GB_workers2VsWorker1 = Number((t1 / t2).toFixed(2));
  results.scale1GB_workers2VsMainThread = Number((t0 / t2).toFixed(2));
  scaleLimits(t1, one, two);
}

/**
 * What limits the pool's scaling, from the CPU of each kind of thread (Linux): with 2 workers
 * the process needs their CPU plus the other threads' (the main thread reading and writing,
 * V8's collectors and compilers, libuv's reads), so 2 cores run it in no less than half the
 * total; past 2 cores the workers divide their part, and the main thread, one of a kind, is the
 * floor. The workers' own CPU for the same records also grows when two run at once (cores that
 * share caches, or a host's, and each isolate compiling the decoder for itself):
 * `workersCpuGrowth` is that growth, and `bestFromWorkersCpu` the speed-up 2 workers could
 * reach with nothing else running.
 */
function scaleLimits(oneWorkerMs: number, one: Timed, two: Timed): void {
  if (one.threads === undefined || two.threads === undefined || two.cpuMs === null) return;
  const perThread = { '1': one.threads.byGroup(), '2': two.threads.byGroup() };
  const workers = perThread['2'].poolWorkers;
  results.scale1GB_threadCpuMs = perThread;
  results.scale1GB_bestOn2Cores = Number((oneWorkerMs / (two.cpuMs / 2)).toFixed(2));
  results.scale1GB_otherThanWorkersCpuMs = two.cpuMs - workers;
  results.scale1GB_mainThreadFloorMs = perThread['2'].mainThread;
  if (perThread['1'].poolWorkers > 0 && workers > 0) {
    results.scale1GB_workersCpuGrowth = Number((workers / perThread['1'].poolWorkers).toFixed(2));
    results.scale1GB_bestFromWorkersCpu = Number((oneWorkerMs / (workers / 2)).toFixed(2));
  }
}

/**
 * What this machine allows any Node program, measured in the same run as the targets they bound.
 * 15× evtxexport: a process that decodes nothing, only reads the 81 MB file and writes as many
 * bytes as `tae parse -f xml` does (and once more with one JS pass over every byte).
 * 2 workers ≥ 1.8× one: two independent main-thread decoders on the 2 cores against one alone.
 * They share nothing, so no pool can scale better than they do on this machine.
 */
async function ceilingsBench(): Promise<void> {
  const size = statSync(BIG).size;
  const xmlBytes = await outputBytes('node', [CLI, 'parse', '-q', '-f', 'xml', BIG]);
  const floor = (touch: boolean) =>
    median(RUNS, () =>
      timeProcess(
        'node',
        [join(import.meta.dirname, 'floor.mjs'), BIG, String(xmlBytes), ...(touch ? ['touch'] : [])],
        {
          cpus: '0',
          discard: true,
        },
      ),
    );
  const bare = report(
    'ceilings',
    `no decoding: start, read the file, write ${xmlBytes} bytes, 1 core`,
    await floor(false),
    BIG_RECORDS,
    size,
  );
  const touched = report(
    'ceilings',
    'the same with one JS pass over every byte, 1 core',
    await floor(true),
    BIG_RECORDS,
    size,
  );
  const ee = await evtxexport('ceilings');
  if (ee !== null) {
    results.noDecodingVsEvtxexport = Number((ee / bare).toFixed(2));
    results.onePassVsEvtxexport = Number((ee / touched).toFixed(2));
  }
  warmupBound();
  const big = await generated('tae-bench-corpus-1GB.evtx', ['--from', BIG]);
  if (big === null) return;
  const bigSize = statSync(big).size;
  const records = Math.round((BIG_RECORDS * bigSize) / size);
  const decoder = () =>
    timeProcess('node', [CLI, 'parse', '-q', '-t', '0', '-f', 'jsonl', big], { cpus: '0,1', discard: true });
  const alone = report(
    'ceilings',
    'one main-thread decoder alone, 1 GiB, 2 cores',
    await median(RUNS, decoder),
    records,
    bigSize,
  );
  const pair = await median(RUNS, async () => {
    const both = await Promise.all([decoder(), decoder()]);
    return { ...both[0]!, wallMs: Math.max(both[0]!.wallMs, both[1]!.wallMs) };
  });
  report(
    'ceilings',
    'two independent main-thread decoders at once (records of both), 1 GiB, 2 cores',
    pair,
    2 * records,
    2 * bigSize,
  );
  results.independentPairVsOne = Number(((2 * alone) / pair.wallMs).toFixed(2));
}

/**
 * Each worker pays its own start-up and JIT warm-up, however the work is split. With S the
 * start of a process, F its first (cold) pass over the 81 MB file and D a warm pass, one worker
 * takes S + F and two at best S + F − D/2: no pool makes 2 workers faster than that ratio there.
 */
function warmupBound(): void {
  const primer = spawnSync('taskset', ['-c', '0', process.execPath, '-e', '0']); // loads node's files into the cache
  const t0 = performance.now();
  spawnSync('taskset', ['-c', '0', process.execPath, '-e', '0']);
  const startMs = performance.now() - t0;
  const child = spawnSync(
    'taskset',
    ['-c', '0', process.execPath, join(import.meta.dirname, 'steady-state.mjs'), BIG, '0', '3000'],
    { encoding: 'utf8' },
  );
  if (primer.status !== 0 || child.status !== 0) return;
  const { firstPassMs, passMs } = JSON.parse(child.stdout.trim()) as { firstPassMs: number; passMs: number };
  const bound = (startMs + firstPassMs) / (startMs + firstPassMs - passMs / 2);
  emit({
    bench: 'ceilings',
    name: 'warm-up per thread, 81 MB file, 1 core',
    startMs: Math.round(startMs),
    firstPassMs,
    passMs,
  });
  results.workers2Bound81MB = Number(bound.toFixed(2));
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
if (hasCorpus && want('scale')) await scaleBench();
if (hasCorpus && want('ceilings')) await ceilingsBench();
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
