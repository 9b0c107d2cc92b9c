/**
 * `tae jobs list|parse|get|cancel|delete`: jobs of the engine in the data directory. The engine
 * runs queued jobs while a command holds it open, so `parse` (and `get --wait`) wait for the
 * job by default; a job left queued runs the next time the directory is opened (`tae serve`).
 * `get` writes the job's results as JSON (`--out`) or as the HTML report (`--html`). Exit 3
 * for a Failed job (7 when a full disk stopped it), 5 when a completed parse job lost records
 * (exit-codes.ts).
 */
import type { Command } from 'commander';
import { cannotWrite } from '../errors/index.js';
import type { Insight } from '../insights/index.js';
import { buildReport } from '../report/index.js';
import { type Auth, type Engine, JOB_NO_SPACE_TEXT, type JobStatusResponse } from '../service/index.js';
import { defaultDataDir, intFlag } from './common.js';
import { type EngineFlags, engineOptions, withEngine } from './engine-flags.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { printJson, writeJsonFile } from './json-output.js';
import { writeRecords } from './output.js';
import { writeOutputFile } from './output-file.js';
import { Progress } from './progress.js';
import { column, type RecordSet } from './records.js';
import { errLine, outLine } from './terminal.js';

type Flags = EngineFlags & FormatFlags;
interface ResultFlags extends Flags {
  wait?: boolean;
  out?: string;
  html?: string;
}

const JOB_COLUMNS = ['job_id', 'job_name', 'status', 'creation_date', 'visibility', 'job_type'];
const LABELS = ['Job ID', 'Name', 'Status', 'Created', 'Visibility', 'Type'];

async function waitFor(engine: Engine, id: string, auth: Auth): Promise<JobStatusResponse> {
  const progress = new Progress();
  const started = Date.now();
  try {
    for (;;) {
      const job = await engine.getJob({ job_id: id }, auth);
      if (job.status === 'Completed' || job.status === 'Failed') return job;
      progress.update(`job ${job.job_name}: ${job.status}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    progress.done();
  }
}

/** One row per insight: its type, title and how many entries (rows, points, nodes, keys) it has. */
function insightRows(insights: readonly Insight[]): RecordSet['rows'] {
  return insights.map((i) => {
    if ('Error' in i) return { type: 'Error', title: i.Error.message, size: null };
    if ('Graph' in i)
      return {
        type: 'Graph',
        title: i.Graph.title,
        size: i.Graph.graph_metadata._stats_optimized_nodes.length,
      };
    if ('Metadata' in i)
      return { type: 'Metadata', title: i.Metadata.title, size: Object.keys(i.Metadata.data).length };
    if ('Table' in i)
      return { type: 'Table', title: i.Table.title, size: Math.max(0, i.Table.data.length - 1) };
    const [type, value] = Object.entries(i)[0] as [string, { title: string; data: unknown[] }];
    return { type, title: value.title, size: value.data.length };
  });
}

async function show(job: JobStatusResponse, flags: ResultFlags): Promise<ExitCode> {
  const format = formatOf(flags);
  const insights = job.insights ?? [];
  if (flags.out) writeJsonFile(flags.out, job);
  if (flags.html && job.status === 'Completed')
    writeOutputFile(flags.html, [
      await buildReport({ title: `Threat analysis: job ${job.job_name}`, generatedAt: Date.now(), insights }),
    ]);
  if (format === 'json') await printJson(job);
  else {
    outLine(`${job.job_name} (${job.id}): ${job.status}`);
    const columns = [column('type', 'Insight'), column('title', 'Title'), column('size', 'Entries')];
    if (insights.length > 0) await writeRecords({ columns, rows: insightRows(insights) }, format);
  }
  // The job's own Error insight is all a job status says of why it failed.
  if (
    job.status === 'Failed' &&
    insights.some((i) => 'Error' in i && i.Error.message === JOB_NO_SPACE_TEXT)
  ) {
    const full = cannotWrite(`to the data directory ${flags.data ?? defaultDataDir()}`);
    errLine(`tae: job ${job.job_name}: ${full.message}`);
    return EXIT.NO_SPACE;
  }
  return runExit({ unreadable: job.status === 'Failed' ? 1 : 0, recordsLost: reportLostRecords(job) });
}

/**
 * A parse job decodes as `tae parse` does: when its Overview counts decode errors, each file
 * that lost records gets a line on stderr and the run exits 5, as `tae parse` would.
 */
function reportLostRecords(job: JobStatusResponse): boolean {
  const overview = (job.insights ?? []).find((i) => 'Metadata' in i && i.Metadata.title === 'Overview');
  const data = overview !== undefined && 'Metadata' in overview ? overview.Metadata.data : {};
  if (!(Number(data.decode_errors ?? 0) > 0)) return false;
  const files = String(data.files ?? '')
    .split('\n')
    .filter((line) => /\d+ decode errors?\b/.test(line));
  for (const f of files.length > 0 ? files : [`${data.decode_errors} decode errors`])
    errLine(`tae: job ${job.job_name}: ${f}: some records could not be decoded`);
  return true;
}

export function jobsCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const jobs = program.command('jobs').description('jobs of the engine in the data directory');

  const list = jobs.command('list').description("list the token's jobs");
  formatOptions(engineOptions(list), { timesketch: false }).action(async (flags: Flags) => {
    const format = formatOf(flags);
    const { jobs: rows } = await withEngine(flags, (engine, auth) => engine.listJobs(auth));
    const columns = JOB_COLUMNS.map((k, i) => column(k, LABELS[i]!));
    await writeRecords(
      {
        columns,
        rows: rows.map((r) => Object.fromEntries(JOB_COLUMNS.map((k, i) => [k, r[i] ?? '']))),
        empty: 'No jobs.',
      },
      format,
    );
  });

  const parse = jobs
    .command('parse')
    .description('create an EVTX parse job over uploaded files and wait for it')
    .argument('<file_ids...>', 'file ids (tae files upload)')
    .option('--sigma', 'run the community Sigma rules')
    .option('--yara', 'also scan the payloads events carry with the community YARA rules')
    .option('--no-wait', 'only queue the job')
    .option('-t, --threads <n>', 'decode threads of this run (default: the cores, at most 8)')
    .option('-o, --out <file>', 'write the job as JSON')
    .option('--html <file>', 'write the HTML report');
  formatOptions(engineOptions(parse), { timesketch: false }).action(
    async (ids: string[], flags: ResultFlags & { sigma?: boolean; yara?: boolean; threads?: string }) => {
      formatOf(flags);
      const threads = intFlag('--threads', flags.threads, 1, 64);
      const code = await withEngine(
        flags,
        async (engine, auth) => {
          const created = await engine.createParseJob(
            {
              file_ids: ids,
              run_sigma_rules: flags.sigma === true,
              ...(flags.yara === true ? { run_yara_payloads: true } : {}),
            },
            auth,
          );
          if (flags.wait === false) {
            outLine(`${created.job_name} (${created.id}): queued`);
            return EXIT.OK;
          }
          return show(await waitFor(engine, created.id, auth), flags);
        },
        threads === undefined ? {} : { decodeThreads: threads },
      );
      setExit(code);
    },
  );

  const get = jobs
    .command('get')
    .description('show a job and its results')
    .argument('<job_id>', 'job id')
    .option('--wait', 'wait until the job is Completed or Failed')
    .option('-o, --out <file>', 'write the job as JSON')
    .option('--html <file>', 'write the HTML report');
  formatOptions(engineOptions(get), { timesketch: false }).action(async (id: string, flags: ResultFlags) => {
    formatOf(flags);
    const code = await withEngine(flags, async (engine, auth) =>
      show(flags.wait ? await waitFor(engine, id, auth) : await engine.getJob({ job_id: id }, auth), flags),
    );
    setExit(code);
  });

  const cancel = jobs
    .command('cancel')
    .description('cancel a Pending or Processing job')
    .argument('<job_id>', 'job id');
  engineOptions(cancel).action(async (id: string, flags: EngineFlags) => {
    const { message } = await withEngine(flags, (engine, auth) => engine.cancelJob({ job_id: id }, auth));
    outLine(message);
  });

  const remove = jobs
    .command('delete')
    .description('delete jobs and their results')
    .argument('<ids...>', 'job ids');
  engineOptions(remove).action(async (ids: string[], flags: EngineFlags) => {
    const { message } = await withEngine(flags, (engine, auth) => engine.deleteJobs({ ids }, auth));
    outLine(message);
  });
}
