/**
 * `tae search FILES` against the search of a job over the same files (issue 47, acceptance 3;
 * `npm run bench -- --only search-files`): the 593 hayabusa attack samples (or --files DIR),
 * each command a whole `tae` process, as a user runs it:
 *   - job: `tae search --data D <job> TERM` on a completed parse job of the files (made once,
 *     through an Engine whose per-request limits admit 593 files);
 *   - first: `tae search DIR TERM` with an empty index cache (it decodes and indexes);
 *   - second: the same again (the cached index).
 * One JSON object per round, then the medians, `secondOverJob` (the target is ≤ 1.5) and the
 * median of the rounds' own ratios.
 *   node --import tsx bench/search-files.ts [--files DIR] [--term T] [--rounds R] [--dir D]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { walkFiles } from '../src/rules/index.js';
import { Engine } from '../src/service/index.js';
import { EVTX_DIR } from '../test/helpers/corpus.js';
import { benchArgs, numberArg, refuse } from './args.js';
import { CLI } from './decode-report.js';
import { timeProcess } from './measure.js';

const USAGE = `
usage: node --import tsx bench/search-files.ts [--files DIR] [--term T] [--rounds R] [--dir D]
  --files DIR   the EVTX files to search (default the corpus's hayabusa-sample-evtx)
  --term T      the search text (default mimikatz)
  --rounds R    first/second/job rounds, medians reported (default 3)
  --dir D       where the data directory and caches are made (default the system's temporary directory)
One JSON object per line.`;
const { values: opts } = benchArgs(USAGE, {
  options: {
    files: { type: 'string', default: join(EVTX_DIR, 'hayabusa-sample-evtx') },
    term: { type: 'string', default: 'mimikatz' },
    rounds: { type: 'string', default: '3' },
    dir: { type: 'string' },
  },
});
const ROUNDS = numberArg('--rounds', opts.rounds, { min: 1, integer: true });
const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'search-files', ...o }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!existsSync(opts.files)) {
  emit({ name: 'skipped', reason: `${opts.files} not found` });
  process.exit(0);
}
const files = [...walkFiles(opts.files, { maxDepth: 32, skipDotNames: true })]
  .filter((e) => e.name.toLowerCase().endsWith('.evtx'))
  .map((e) => e.path);
if (files.length === 0) refuse(`no EVTX files under ${opts.files}`);

const work = mkdtempSync(join(opts.dir ?? tmpdir(), 'tae-bench-search-files-'));
const data = join(work, 'data');

/** A public parse job over every file, through an Engine that takes them in one request. */
async function makeJob(): Promise<string> {
  const limits = { maxIdsPerRequest: files.length, maxFilesPerUpload: files.length };
  const engine = await Engine.open({ dataDir: data, limits });
  try {
    const t = performance.now();
    const up = await engine.upload({
      files: files.map((f) => ({ name: basename(f), data: readFileSync(f) })),
    });
    const job = await engine.createParseJob({
      file_ids: up.file_ids.map(([id]) => id),
      run_sigma_rules: false,
    });
    for (;;) {
      const { status } = await engine.getJob({ job_id: job.id });
      if (status === 'Completed') break;
      if (status === 'Failed') refuse(`the parse job failed`);
      await new Promise((r) => setTimeout(r, 50));
    }
    emit({ name: 'job made', files: files.length, ms: Math.round(performance.now() - t) });
    return job.id;
  } finally {
    await engine.close();
  }
}

const tae = (args: string[], cache: string) =>
  timeProcess('node', [CLI, ...args], {
    env: { ...process.env, TAE_CACHE_DIR: cache, TAE_HOME: join(work, 'home'), TMPDIR: work },
  });

try {
  const jobId = await makeJob();
  // The events, without the table's header and its closing line (a job's has no total).
  const rows = (stdout: string) => stdout.trimEnd().split('\n').slice(2, -1).join('\n');
  const all = { job: [] as number[], first: [] as number[], second: [] as number[] };
  for (let round = 1; round <= ROUNDS; round++) {
    const cache = join(work, `cache-${round}`);
    const job = await tae(['search', '--data', data, jobId, opts.term], cache);
    const first = await tae(['search', opts.files, opts.term], cache);
    const second = await tae(['search', opts.files, opts.term], cache);
    for (const t of [job, first, second])
      if (t.exitCode !== 0) refuse(`tae search exited ${t.exitCode}: ${t.stderr}`);
    const cached = readdirSync(join(cache, 'search')).length > 0;
    rmSync(cache, { recursive: true, force: true });
    all.job.push(job.wallMs);
    all.first.push(first.wallMs);
    all.second.push(second.wallMs);
    emit({
      name: 'round',
      round,
      jobMs: Math.round(job.wallMs),
      firstMs: Math.round(first.wallMs),
      secondMs: Math.round(second.wallMs),
      secondOverJob: Number((second.wallMs / job.wallMs).toFixed(2)),
      sameRows: rows(job.stdout) === rows(first.stdout) && first.stdout === second.stdout,
      cached,
    });
  }
  const [job, first, second] = [median(all.job), median(all.first), median(all.second)];
  emit({
    name: `tae search, ${files.length} files, "${opts.term}", medians of ${ROUNDS}`,
    jobMs: Math.round(job),
    firstMs: Math.round(first),
    secondMs: Math.round(second),
    secondOverJob: Number((second / job).toFixed(2)),
    // Paired within each round, so that a load that changed between rounds weighs less.
    medianRoundRatio: Number(median(all.second.map((s, i) => s / all.job[i]!)).toFixed(2)),
    firstOverJob: Number((first / job).toFixed(2)),
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
