/**
 * Over 400 lines because its modes share the job runner, the generated files and the CLI helpers.
 * Parse jobs end to end through the real CLI (`npm run bench -- --only job`), as a user runs
 * them: `tae tokens create`, `tae files upload`, then `tae jobs parse --sigma` (community Sigma
 * rules, event index built) in a child process under /usr/bin/time for its peak RSS, against
 * `tae parse -t 2` (the engine's decode threads here) of the same files in the same run, in
 * rounds (`--rounds`, default 3 on 1 GB: `tae parse`, the private job, `tae parse`, the public
 * job; each job set against the `tae parse` run before it and, bracketed, against the mean of
 * the runs before and after it; the summary gives the medians); then the first `tae search`
 * from a cold process. Private (token and
 * key) and public, on about 100 MB (one file), 500 MB (two) and 1 GB (four 238 MiB files, the
 * spec's job limit), made by fixtures/generate-large.ts and cached under .bench-out/. One JSON
 * object per line; the last holds the peak RSS of every size and whether they are flat (within
 * 25 % of each other).
 *   node --import tsx bench/job.ts [--quick] [--sizes 100M,500M,1G] [--keep] [--rounds N] [--yara]
 * --quick (or TAE_BENCH_JOB_QUICK=1) runs only 100 MB; --keep keeps the data directories.
 * --yara (or TAE_BENCH_JOB_YARA=1, for `npm run bench -- --only job`) measures payload
 * scanning instead (issue 19, acceptance 3): per size, the public job with Sigma, without and
 * with `--yara` (run_yara_payloads), alternated N times (default 3) so that a noisy machine
 * weighs on both alike; each run's wall and CPU time (user + sys), then the medians and ratios.
 * Each job row also gives the events/s of each stage: decoding (`tae parse -t 2`), decoding
 * with the community Sigma rules matched in the workers (`tae sigma -t 2`), the job's decoding
 * and analysis (up to its index completion), the index completion (from the job's TAE_DEBUG
 * line) and the whole job; and `threads`, the CPU of each kind of thread in each phase (on
 * Linux: the job's own thread, the pool's workers, the index writer and completion threads,
 * V8's and libuv's helpers), with the floor the serial threads put under the decoding phase
 * however many cores there are (issue 15, acceptance 2: how the design scales past 2 cores).
 * --threads-compare (or TAE_BENCH_JOB_THREADS=1) runs, per size, the private job with
 * `--threads 1` and `--threads 2`, alternated N times (default 2), and prints the medians and
 * the speed-up (issue 15, acceptance 2).
 * --index-share (or TAE_BENCH_JOB_INDEX=1) runs, per size, the public job in one process
 * (bench/job-index-share.ts) without and with its event index, alternated N times (default 2):
 * the index's share of the job's CPU, and the job without it against `tae parse`.
 * --gc (or TAE_BENCH_JOB_GC=1) runs, per size, the private job once under V8's
 * `--trace-gc-nvp` and prints each thread's collections: young and full, pause, bytes promoted
 * to the old generation, marking on V8's helper threads (thread 0 is the job's thread).
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberArg } from './args.js';
import { gcByThread } from './gc-trace.js';
import { generatedJobFile, JOB_SIZES } from './job-files.js';
import { coresBetween, median, type Timed, timeProcess } from './measure.js';
import { spreadBound } from './threads.js';

const USAGE = `
usage: node --import tsx bench/job.ts [--quick] [--sizes 100M,500M,1G] [--keep] [--rounds N]
                                      [--yara | --threads-compare | --index-share | --gc]
  --quick            100 MB only (or TAE_BENCH_JOB_QUICK=1)
  --sizes LIST       which of 100M, 500M and 1G (default all)
  --keep             keep the data directories
  --rounds N         rounds per size (default 3 on 1 GB, else 1; 2 or 3 for the modes below)
  --yara             payload scanning: the public job without and with --yara
  --threads-compare  the private job with 1 and with 2 decode threads
  --index-share      the public job in one process, without and with its event index
  --gc               the private job under --trace-gc-nvp, collections per thread
One JSON object per line; see the comment at the top of bench/job.ts for each mode.`;
const { values: opts } = benchArgs(USAGE, {
  options: {
    quick: { type: 'boolean' },
    sizes: { type: 'string' },
    keep: { type: 'boolean' },
    yara: { type: 'boolean' },
    rounds: { type: 'string' },
    'threads-compare': { type: 'boolean' },
    'index-share': { type: 'boolean' },
    gc: { type: 'boolean' },
  },
});
if (opts.rounds !== undefined) numberArg('--rounds', opts.rounds, { min: 1, integer: true });
const YARA = opts.yara === true || process.env.TAE_BENCH_JOB_YARA === '1';
const THREADS = opts['threads-compare'] === true || process.env.TAE_BENCH_JOB_THREADS === '1';
const INDEX_SHARE = opts['index-share'] === true || process.env.TAE_BENCH_JOB_INDEX === '1';
const GC = opts.gc === true || process.env.TAE_BENCH_JOB_GC === '1';
/** The default mode: rounds of `tae parse` beside the private and public jobs. */
const JOB_MODE = !YARA && !THREADS && !INDEX_SHARE && !GC;
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const OUT = join(ROOT, '.bench-out');
const KEY = 'bench key 0123456789abcdef';
const SEARCH_TEXT = 'svchost';
const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'job', ...o }));
const mib = (kb: number | null) => (kb === null ? null : Math.round(kb / 1024));

const SIZES = JOB_SIZES;
const generated = generatedJobFile;

/** Runs the CLI to completion and returns its stdout parsed as JSON (`-f json`). */
function cliJson<T>(args: readonly string[]): T {
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`tae ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const dirBytes = (dir: string): number =>
  existsSync(dir) ? readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0) : 0;

interface JobJson {
  id: string;
  status: string;
  insights?: { Metadata?: { title: string; data: Record<string, string> } }[];
}

/** The job's index completion time, from its TAE_DEBUG line (src/search/complete.ts). */
const completionMs = (stderr: string): number | null => {
  const m = /index completion: \d+ events in (\d+) ms/.exec(stderr);
  return m ? Number(m[1]) : null;
};

const perSec = (events: number, ms: number | null) =>
  ms === null || ms <= 0 || events <= 0 ? null : Math.round(events / (ms / 1000));

/** What the stages outside the job did with the same files, in the same run (wall ms). */
interface StageTimes {
  readonly parseMs: number;
  readonly sigmaMs: number | null;
}

/**
 * Reads `paths` whole, so that the run timed next finds them in the page cache. This machine
 * reclaims pages unused for a minute or two (DAMON's reclaim, kdamond): a round's `tae parse`
 * found 65–92 % of its input cached, and the first one none, read from disk at 15.6 s against
 * 5–7 s; a job's freshly uploaded files were cached. Both are timed on cached inputs now.
 */
function warm(paths: readonly string[]): void {
  const buf = Buffer.allocUnsafe(8 << 20);
  for (const p of paths) {
    const fd = openSync(p, 'r');
    try {
      while (readSync(fd, buf, 0, buf.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}

/** The files under `dir`, at any depth. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** The CLI arguments that reach `data` (a token and key for a private job) and the ids of `files` uploaded there. */
function uploadAs(data: string, visibility: 'private' | 'public', files: readonly string[]) {
  const auth: string[] = ['--data', data];
  if (visibility === 'private') {
    const [t] = cliJson<{ token: string }[]>(['tokens', 'create', '--data', data]);
    auth.push('--token', t!.token, '--key', KEY);
  }
  const uploaded = cliJson<{ file_id: string }[]>(['files', 'upload', ...auth, ...files]);
  return { auth, ids: uploaded.map((u) => u.file_id) };
}

async function jobRun(
  label: string,
  files: readonly string[],
  visibility: 'private' | 'public',
  stages: StageTimes,
  yara = false,
  threads?: number,
) {
  const parseMs = stages.parseMs;
  const data = mkdtempSync(join(OUT, 'data-'));
  try {
    const { auth, ids } = uploadAs(data, visibility, files);
    warm(filesUnder(join(data, 'files')));
    const job = await timeProcess(
      'node',
      [
        CLI,
        'jobs',
        'parse',
        '--sigma',
        ...(yara ? ['--yara'] : []),
        ...(threads === undefined ? [] : ['--threads', String(threads)]),
        ...auth,
        '--json',
        ...ids,
      ],
      { env: { TAE_DEBUG: '1' }, sampleCpuEveryMs: 100 },
    );
    const body = JSON.parse(job.stdout) as JobJson;
    const overview = body.insights?.find((i) => i.Metadata?.title === 'Overview')?.Metadata?.data ?? {};
    const events = Number(overview.records ?? 0) - Number(overview.duplicates ?? 0);
    const indexBytes = dirBytes(join(data, 'indexes'));
    const search = await timeProcess('node', [CLI, 'search', body.id, SEARCH_TEXT, ...auth, '--json'], {
      discard: true,
    });
    const s = job.wallMs / 1000;
    const completion = completionMs(job.stderr);
    const row = {
      name: `${label} ${visibility} job, Sigma on, index built${yara ? ', payload YARA on' : ''}${threads === undefined ? '' : `, ${threads} decode thread${threads === 1 ? '' : 's'}`}`,
      files: files.length,
      inputBytes: files.reduce((n, f) => n + statSync(f).size, 0),
      status: body.status,
      exitCode: job.exitCode,
      events,
      wallMs: Math.round(job.wallMs),
      cpuMs: job.cpuMs,
      ...(yara ? { yaraPayloads: overview.yara_payloads ?? null } : {}),
      vsTaeParse: Number((job.wallMs / parseMs).toFixed(2)),
      eventsPerSec: Math.round(events / s),
      completionMs: completion,
      stageEventsPerSec: {
        decode: perSec(events, stages.parseMs),
        decodeAndSigma: perSec(events, stages.sigmaMs),
        jobDecodeAndAnalysis: perSec(events, completion === null ? null : job.wallMs - completion),
        indexCompletion: perSec(events, completion),
        whole: perSec(events, job.wallMs),
      },
      // What limits the job: the cores it kept busy in each phase, and its CPU per event.
      coresUsed: {
        decodeAndAnalysis:
          completion === null || job.cpuSamples === undefined
            ? null
            : coresBetween(job.cpuSamples, 0, job.wallMs - completion),
        indexCompletion:
          completion === null || job.cpuSamples === undefined
            ? null
            : coresBetween(job.cpuSamples, job.wallMs - completion, job.wallMs),
      },
      cpuMicrosPerEvent: job.cpuMs === null || events <= 0 ? null : Math.round((job.cpuMs * 1000) / events),
      threads: threadFigures(job, completion),
      // How the whole job would spread over more cores (bench/spread.ts measures it alike).
      spread: job.threads === undefined || job.cpuMs === null ? null : spreadBound(job.threads, job.cpuMs),
      peakRssMiB: mib(job.peakRssKb),
      indexBytesPerEvent: events > 0 ? Math.round(indexBytes / events) : null,
      firstSearchMs: Math.round(search.wallMs),
      firstSearchPeakRssMiB: mib(search.peakRssKb),
      firstSearchExitCode: search.exitCode,
    };
    emit(row);
    return row;
  } finally {
    if (!opts.keep) rmSync(data, { recursive: true, force: true });
  }
}

/**
 * Where the job's CPU went, per kind of thread and phase, and what bounds it past 2 cores: in
 * the decoding and analysis phase the pool's workers scale with cores, but the job's own
 * thread and the index writer are one thread each, so the phase cannot take less than the
 * busier of the two, whatever the cores; likewise the completion's threads.
 */
function threadFigures(job: Timed, completion: number | null) {
  if (job.threads === undefined || completion === null) return null;
  const split = job.wallMs - completion;
  const decoding = job.threads.byGroup(0, split);
  const completing = job.threads.byGroup(split, Number.POSITIVE_INFINITY);
  const serial = Math.max(decoding.mainThread, decoding.indexWriter);
  return {
    decodeAndAnalysisCpuMs: decoding,
    indexCompletionCpuMs: completing,
    decodeAndAnalysis: {
      wallMs: Math.round(split),
      busiestSerialThread: decoding.mainThread >= decoding.indexWriter ? 'mainThread' : 'indexWriter',
      serialFloorMs: serial,
      /** The most more cores could shorten this phase, with the serial threads as they are. */
      maxSpeedUp: serial > 0 ? Number((split / serial).toFixed(2)) : null,
    },
  };
}

/** The private job on 1 and 2 decode threads, alternated, so that a noisy machine weighs on both. */
async function threadRuns(size: string, files: readonly string[], stages: StageTimes): Promise<void> {
  const rounds = Number(opts.rounds ?? 2);
  const runs: Record<'1' | '2', number[]> = { '1': [], '2': [] };
  const cpu: Record<'1' | '2', number[]> = { '1': [], '2': [] };
  for (let i = 0; i < rounds; i++)
    for (const threads of i % 2 === 0 ? [1, 2] : [2, 1]) {
      const r = await jobRun(size, files, 'private', stages, false, threads);
      runs[String(threads) as '1' | '2'].push(r.wallMs);
      if (r.cpuMs !== null) cpu[String(threads) as '1' | '2'].push(r.cpuMs);
    }
  const one = middle(runs['1']);
  const two = middle(runs['2']);
  // The job's other threads (its own, the index writer, V8's collectors) run beside a single
  // decode thread on the other core: on 2 cores a second decode thread gains only the time
  // they leave idle. No 2-thread run on 2 cores is shorter than half the CPU it spends, which
  // bounds the speed-up there (reported on 2-core machines only; with more, the bound lifts).
  const oneCores = cpu['1'].length > 0 ? middle(cpu['1']) / one : null;
  const bound = cpu['2'].length > 0 && availableParallelism() === 2 ? one / (middle(cpu['2']) / 2) : null;
  emit({
    summary: {
      name: `${size} private job, Sigma on: 1 vs 2 decode threads (${rounds} runs each, alternated)`,
      wallMs: runs,
      medianWallMs: { '1': one, '2': two },
      speedUp: Number((one / two).toFixed(2)),
      coresUsedWithOneThread: oneCores === null ? null : Number(oneCores.toFixed(2)),
      bestOn2Cores: bound === null ? null : Number(bound.toFixed(2)),
    },
  });
}

/** The in-process public job without and with its event index, alternated. */
async function indexShareRuns(size: string, files: readonly string[], stages: StageTimes): Promise<void> {
  const rounds = Number(opts.rounds ?? 2);
  const script = join(import.meta.dirname, 'job-index-share.ts');
  const runs: Record<'none' | 'index', { wallMs: number; cpuMs: number }[]> = { none: [], index: [] };
  for (let i = 0; i < rounds; i++)
    for (const mode of i % 2 === 0 ? (['none', 'index'] as const) : (['index', 'none'] as const)) {
      const r = await timeProcess('node', ['--import', 'tsx', script, mode, ...files], {});
      const line = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as {
        wallMs?: number;
        cpuMs?: number;
        status?: string;
      };
      if (
        r.exitCode !== 0 ||
        line.status !== 'Completed' ||
        line.wallMs === undefined ||
        line.cpuMs === undefined
      )
        throw new Error(`job-index-share.ts ${mode} failed: ${r.stderr.slice(-500)}`);
      emit({
        name: `${size} public job in one process, ${mode === 'none' ? 'no event index' : 'event index built'}`,
        ...line,
      });
      runs[mode].push({ wallMs: line.wallMs, cpuMs: line.cpuMs });
    }
  const wall = {
    none: middle(runs.none.map((r) => r.wallMs)),
    index: middle(runs.index.map((r) => r.wallMs)),
  };
  const cpu = { none: middle(runs.none.map((r) => r.cpuMs)), index: middle(runs.index.map((r) => r.cpuMs)) };
  emit({
    summary: {
      name: `${size} public job, Sigma on: without and with its event index (${rounds} runs each, alternated)`,
      runs,
      medianWallMs: wall,
      medianCpuMs: cpu,
      indexShareOfCpu: Number((1 - cpu.none / cpu.index).toFixed(2)),
      withoutIndexVsTaeParse: Number((wall.none / stages.parseMs).toFixed(2)),
      withIndexVsTaeParse: Number((wall.index / stages.parseMs).toFixed(2)),
    },
  });
}

/**
 * The default mode's rounds (`--rounds`, default 3 on 1 GB and 1 on the smaller sizes): each
 * round times `tae parse`, the private job, `tae parse` again and the public job (and one more
 * `tae parse` closes the last round), so that each job is set against the `tae parse` run just
 * before it and, bracketed, against the mean of the runs before and after it: this machine's
 * speed moved by up to 30 % within an hour, more than the jobs' own spread, and a job's 20–30 s
 * can fall in a slower or faster stretch than one `tae parse` beside it. Per visibility: each
 * round's ratio, the median of those ratios, the median job against the median `tae parse`
 * run, and the bracketed ratios and their median.
 */
async function jobRounds(
  size: string,
  files: readonly string[],
  first: StageTimes,
  parseRun: () => Promise<Timed>,
) {
  const rounds = Number(opts.rounds ?? (size === '1G' ? 3 : 1));
  /**
   * Every `tae parse` of the rounds in order: round i's private job ran between runs 2i and
   * 2i + 1, its public job between 2i + 1 and 2i + 2; run 2i is the one its ratios are set against.
   */
  const sequence: number[] = [];
  const timedParse = async (label: string) => {
    const ms = (await parseRun()).wallMs;
    emit({ name: `${size} tae parse -t 2 -f jsonl (same files, ${label})`, wallMs: Math.round(ms) });
    sequence.push(ms);
    return ms;
  };
  const runs = {
    private: [] as Awaited<ReturnType<typeof jobRun>>[],
    public: [] as Awaited<ReturnType<typeof jobRun>>[],
  };
  for (let i = 0; i < rounds; i++) {
    let parseMs = first.parseMs;
    if (i === 0) sequence.push(parseMs);
    else parseMs = await timedParse(`round ${i + 1}`);
    runs.private.push(await jobRun(size, files, 'private', { ...first, parseMs }));
    await timedParse(`round ${i + 1}, between the jobs`);
    runs.public.push(await jobRun(size, files, 'public', { ...first, parseMs }));
  }
  await timedParse('after the last round');
  const parses = sequence.filter((_, k) => k % 2 === 0 && k < 2 * rounds);
  const parseMedian = middle(parses);
  const summary = (visibility: 'private' | 'public') => {
    const rows = runs[visibility];
    const wall = middle(rows.map((r) => r.wallMs));
    const shift = visibility === 'private' ? 0 : 1;
    const bracketed = rows.map((r, i) =>
      Number((r.wallMs / ((sequence[2 * i + shift]! + sequence[2 * i + shift + 1]!) / 2)).toFixed(2)),
    );
    return {
      rounds,
      parseMs: parses.map(Math.round),
      wallMs: rows.map((r) => r.wallMs),
      roundRatios: rows.map((r) => r.vsTaeParse),
      medianRoundRatio: Number(middle(rows.map((r) => r.vsTaeParse)).toFixed(2)),
      medianWallMs: Math.round(wall),
      medianParseMs: Math.round(parseMedian),
      medianVsMedianParse: Number((wall / parseMedian).toFixed(2)),
      bracketedRatios: bracketed,
      medianBracketedRatio: Number(middle(bracketed).toFixed(2)),
      peakRssMiB: Math.max(...rows.map((r) => r.peakRssMiB ?? 0)),
      cpuMicrosPerEvent: middle(rows.map((r) => r.cpuMicrosPerEvent ?? Number.NaN)),
      indexBytesPerEvent: rows[0]?.indexBytesPerEvent ?? null,
    };
  };
  const result = {
    private: runs.private,
    public: runs.public,
    summary: { private: summary('private'), public: summary('public') },
  };
  emit({
    summary: {
      name: `${size} jobs against tae parse (${rounds} round${rounds === 1 ? '' : 's'})`,
      parseSequenceMs: sequence.map(Math.round),
      ...result.summary,
    },
  });
  return result;
}

/** The median (the mean of the two middle values for an even count). */
const middle = (values: readonly number[]): number => {
  const v = [...values].sort((a, b) => a - b);
  const h = v.length >> 1;
  return v.length % 2 === 1 ? v[h]! : (v[h - 1]! + v[h]!) / 2;
};

/** Without and with payload scanning, alternated, on the same files in the same run. */
async function yaraRuns(size: string, files: readonly string[], stages: StageTimes): Promise<void> {
  const rounds = Number(opts.rounds ?? 3);
  const runs: Record<'off' | 'on', { wallMs: number; cpuMs: number }[]> = { off: [], on: [] };
  for (let i = 0; i < rounds; i++)
    for (const yara of i % 2 === 0 ? [false, true] : [true, false]) {
      const r = await jobRun(size, files, 'public', stages, yara);
      runs[yara ? 'on' : 'off'].push({ wallMs: r.wallMs, cpuMs: r.cpuMs ?? Number.NaN });
    }
  const med = (k: 'off' | 'on', f: 'wallMs' | 'cpuMs') => middle(runs[k].map((r) => r[f]));
  emit({
    summary: {
      name: `${size} public job, Sigma on: payload YARA off vs on (${rounds} runs each, alternated)`,
      wallMs: { off: runs.off.map((r) => r.wallMs), on: runs.on.map((r) => r.wallMs) },
      cpuMs: { off: runs.off.map((r) => r.cpuMs), on: runs.on.map((r) => r.cpuMs) },
      medianWallMs: { off: med('off', 'wallMs'), on: med('on', 'wallMs') },
      medianCpuMs: { off: med('off', 'cpuMs'), on: med('on', 'cpuMs') },
      wallRatio: Number((med('on', 'wallMs') / med('off', 'wallMs')).toFixed(3)),
      cpuRatio: Number((med('on', 'cpuMs') / med('off', 'cpuMs')).toFixed(3)),
    },
  });
}

/** The private job once under V8's `--trace-gc-nvp`: each thread's collections (gc-trace.ts). */
async function gcRun(size: string, files: readonly string[]): Promise<void> {
  const data = mkdtempSync(join(OUT, 'data-'));
  try {
    const { auth, ids } = uploadAs(data, 'private', files);
    // Without --json the job prints a short table, so little of its output lands among V8's lines.
    const job = await timeProcess('node', [
      '--trace-gc-nvp',
      CLI,
      'jobs',
      'parse',
      '--sigma',
      ...auth,
      ...ids,
    ]);
    emit({
      name: `${size} private job, Sigma on, index built, under --trace-gc-nvp (thread 0: the job's thread)`,
      exitCode: job.exitCode,
      wallMs: Math.round(job.wallMs),
      cpuMs: job.cpuMs,
      peakRssMiB: mib(job.peakRssKb),
      gc: gcByThread(job.stdout),
    });
  } finally {
    if (!opts.keep) rmSync(data, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('run `npm run build` first (npm run bench does)');
  mkdirSync(OUT, { recursive: true });
  const quick = opts.quick === true || process.env.TAE_BENCH_JOB_QUICK === '1';
  const sizes = quick ? ['100M'] : (opts.sizes?.split(',') ?? Object.keys(SIZES));
  const peaks: Record<string, Record<string, number | null>> = { private: {}, public: {} };
  const summary: Record<string, unknown> = {};
  for (const size of sizes) {
    const spec = SIZES[size];
    if (spec === undefined) throw new Error(`unknown size ${size} (one of ${Object.keys(SIZES).join(', ')})`);
    const files = spec.map(([s, seed]) => generated(s, seed));
    if (GC) {
      await gcRun(size, files);
      continue;
    }
    const parseRun = () => {
      warm(files);
      return timeProcess('node', [CLI, 'parse', '-q', '-t', '2', '-f', 'jsonl', ...files], { discard: true });
    };
    // The reference of the special modes' ratios: the median of three runs, since one run of a
    // few seconds moved by 15 % between runs on this machine (4.08 and 4.77 s the same day).
    // The default mode times `tae parse` once per round instead, beside that round's jobs.
    const parse = await median(JOB_MODE ? 1 : 3, parseRun);
    emit({
      name: `${size} tae parse -t 2 -f jsonl (same files${JOB_MODE ? '' : ', median of 3'})`,
      wallMs: Math.round(parse.wallMs),
      runsMs: parse.runsMs,
      peakRssMiB: mib(parse.peakRssKb),
    });
    const sigma = await timeProcess('node', [CLI, 'sigma', '-q', '-t', '2', '--jsonl', ...files], {
      discard: true,
    });
    emit({
      name: `${size} tae sigma -t 2 (community rules matched in the decode workers, same files)`,
      wallMs: Math.round(sigma.wallMs),
      exitCode: sigma.exitCode,
      peakRssMiB: mib(sigma.peakRssKb),
    });
    const stages: StageTimes = { parseMs: parse.wallMs, sigmaMs: sigma.exitCode === 0 ? sigma.wallMs : null };
    if (YARA) {
      await yaraRuns(size, files, stages);
      continue;
    }
    if (THREADS) {
      await threadRuns(size, files, stages);
      continue;
    }
    if (INDEX_SHARE) {
      await indexShareRuns(size, files, stages);
      continue;
    }
    const rounds = await jobRounds(size, files, stages, parseRun);
    for (const visibility of ['private', 'public'] as const) {
      peaks[visibility]![size] = Math.max(...rounds[visibility].map((r) => r.peakRssMiB ?? 0));
      if (size === '1G') summary[`${visibility}1G`] = rounds.summary[visibility];
    }
  }
  if (YARA || THREADS || INDEX_SHARE || GC) return;
  for (const visibility of ['private', 'public'] as const) {
    const values = Object.values(peaks[visibility]!).filter((v): v is number => v !== null);
    const spread = values.length > 1 ? Math.max(...values) / Math.min(...values) - 1 : 0;
    summary[`${visibility}PeakRssMiB`] = peaks[visibility];
    summary[`${visibility}PeakSpread`] = Number(spread.toFixed(2));
  }
  emit({ summary });
}

await main();
