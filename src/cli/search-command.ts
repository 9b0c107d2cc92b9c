/**
 * `tae search <source> [text]`: the search endpoint over a completed parse job of the engine
 * in the data directory, or over EVTX files searched in place (search-files.ts). The source is
 * files when it names a path that exists, or is `-` or `@LIST`; anything else is a job id
 * (a file named like a job id: `./<name>`). By default it browses raw events (an `Event
 * Table` per page; `--all`: every match of files, streamed); `--summary` asks for the
 * results rebuilt for the time window instead.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { TaeError } from '../errors/index.js';
import type { Insight } from '../insights/index.js';
import { countMatches, type EvtxIndex, type IndexSearchRequest, placedRows } from '../library/index.js';
import { collect, intFlag, usage } from './common.js';
import { type EngineFlags, engineOptions, withEngine } from './engine-flags.js';
import { EXIT, type ExitCode, runExit } from './exit-codes.js';
import { type Format, type FormatFlags, formatOf, formatOptions } from './formats.js';
import { expandInputs, inputsHelp, wrap } from './inputs.js';
import { printJson } from './json-output.js';
import { Output, streamRecords, writeRecords } from './output.js';
import type { Row } from './records.js';
import { withFileIndex } from './search-files.js';
import { eventRow, eventSet, type PageFacts, pageHint, placedRow } from './search-rows.js';
import { errLine } from './terminal.js';

interface SearchFlags extends EngineFlags, FormatFlags {
  filter?: string[];
  from?: string;
  to?: string;
  page?: string;
  show?: string;
  summary?: boolean;
  all?: boolean;
  sigma?: boolean;
  cache?: boolean;
}

function timeFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms))
    throw usage(`${flag} must be an ISO 8601 time or Unix milliseconds (got ${JSON.stringify(value)})`);
  return ms;
}

function parseFilter(text: string) {
  const m = /^([^:]+):([a-z_]+):(.*)$/s.exec(text);
  if (!m) throw usage(`--filter must be FIELD:OPERATOR:VALUE (got ${JSON.stringify(text)})`);
  return { field: m[1]!, operator: m[2]!, value: m[3]! };
}

function eventRows(insights: readonly Insight[]): Row[] {
  return insights.flatMap((i) => ('IndexTable' in i ? i.IndexTable.data.map((r) => eventRow(r)) : []));
}

/** Events past this are not counted for the page line (`1,000+`): counting costs a scan. */
const COUNT_CAP = 100_000;

/** Files, not a job: a path that exists, `-` or `@LIST`. */
const namesFiles = (source: string) => source === '-' || source.startsWith('@') || existsSync(source);

/** Job ids are UUIDs: anything else that names no existing path was meant as a file. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SOURCE_HELP = wrap(
  "Source: a path that exists, - or @LIST is searched as EVTX files, in place: they are indexed into an encrypted index, kept in the cache ($TAE_CACHE_DIR/search, keyed by the files' content; --no-cache: a temporary one) so that the same files are searched again at once; a job id (a UUID) is a job (name a file that looks like one as ./NAME).",
  78,
);

export function searchCommand(program: Command, setExit: (code: ExitCode) => void): void {
  const command = program
    .command('search')
    .description(
      'search the events of EVTX files, or of a completed parse job (engine in the data directory)',
    )
    .argument('<source>', 'EVTX files (a file, a directory, - or @LIST), or a completed winevtx job id')
    .argument('[text]', 'case-insensitive text matched in every field', '')
    .option(
      '--filter <filter>',
      'FIELD:OPERATOR:VALUE (fields: event_id, provider, computer, details.<name>…; repeatable)',
      collect,
    )
    .option('--from <time>', 'start of the time window (ISO 8601 or Unix ms)')
    .option('--to <time>', 'end of the time window (ISO 8601 or Unix ms)')
    .option('--page <n>', 'page, 1 to 10 (default 1)')
    .option('--show <n>', 'events per page, 1 to 100 (default 10)')
    .option('--all', 'files: every matching event, streamed (instead of one page)')
    .option(
      '--sigma',
      'files: match the builtin Sigma rules while indexing (sigma_matches filters, rule titles in text)',
    )
    .option('--summary', 'the results rebuilt for the time window, as JSON, instead of events')
    .option('--no-cache', 'files: index them again instead of using (and keeping) a cached index')
    .addHelpText('after', `\n${SOURCE_HELP}\n${inputsHelp('evtx')}`);
  formatOptions(engineOptions(command), { timesketch: true }).action(
    async (source: string, text: string, flags: SearchFlags) => {
      setExit(await runSearch(source, text, flags));
    },
  );
}

async function runSearch(source: string, text: string, flags: SearchFlags): Promise<ExitCode> {
  const format = formatOf(flags);
  const start = timeFlag('--from', flags.from);
  const end = timeFlag('--to', flags.to);
  if (flags.all && (flags.page !== undefined || flags.show !== undefined || flags.summary))
    throw usage('--all lists every match: it takes no --page, --show or --summary');
  const request = {
    search: text,
    browse_events: flags.summary !== true,
    page: intFlag('--page', flags.page, 1, 10) ?? 1,
    show: intFlag('--show', flags.show, 1, 100) ?? 10,
    ...(flags.filter?.length ? { filter: flags.filter.map(parseFilter) } : {}),
    ...(start !== undefined ? { start_time: start } : {}),
    ...(end !== undefined ? { end_time: end } : {}),
  };
  if (!namesFiles(source)) {
    if (!JOB_ID.test(source))
      throw new TaeError('INPUT_UNREADABLE', `cannot search ${source}: file not found (nor a job id)`);
    if (flags.all || flags.sigma)
      throw usage(
        `${flags.all ? '--all' : '--sigma'} searches files; ${JSON.stringify(source)} is not a path that exists`,
      );
    const response = await withEngine(flags, async (engine, auth) => {
      const answer = await engine.search({ job_id: source, ...request }, auth);
      if (flags.summary || request.page >= 10) return { answer, more: false };
      // The endpoint gives no total: whether a next page exists is asked of the next page.
      const next = await engine.search({ job_id: source, ...request, page: request.page + 1 }, auth);
      return { answer, more: eventRows(insightsOf(next)).length > 0 };
    });
    if (flags.summary) await printJson(response.answer);
    else {
      const rows = eventRows(insightsOf(response.answer));
      await printPage(rows, format, text, { ...request, shown: rows.length, more: response.more });
    }
    return EXIT.OK;
  }
  const { files, unreadable } = await expandInputs([source], 'evtx');
  if (files.length === 0) return EXIT.INPUT;
  return withFileIndex(
    { files, sigma: flags.sigma === true, cache: flags.cache !== false },
    async (index) => {
      for (const e of index.errors) errLine(`tae: ${e.Error.message}`);
      if (flags.all) {
        const set = eventSet(format, text);
        await streamRecords(set, batchesOf(index, request, set.shape), format);
      } else if (flags.summary) await printJson(await index.search(request));
      else {
        const rows = [...placedRows(index, request, false)].flat().map(placedRow);
        const total = countMatches(index, request, COUNT_CAP);
        await printPage(rows, format, text, { ...request, shown: rows.length, total });
      }
      return runExit({ unreadable: unreadable + index.errors.length, recordsLost: false });
    },
  );
}

function* batchesOf(index: EvtxIndex, request: IndexSearchRequest, shape: (r: Row) => Row): Generator<Row[]> {
  for (const batch of placedRows(index, request, true)) yield batch.map((p) => shape(placedRow(p)));
}

const insightsOf = (response: unknown): Insight[] =>
  typeof response === 'object' && response !== null && 'insights' in response
    ? (response.insights as Insight[])
    : [];

/** The page's events, then which of how many they are: after the table, or on stderr. */
async function printPage(
  rows: readonly Row[],
  format: Format,
  text: string,
  facts: Omit<PageFacts, 'cap'>,
): Promise<void> {
  const set = eventSet(format, text);
  const out = new Output();
  await writeRecords({ ...set, rows: rows.map(set.shape) }, format, out);
  const hint = pageHint({ ...facts, cap: COUNT_CAP });
  if (hint === undefined) return;
  if (format === 'table') await out.writeText(`${hint}\n`);
  else errLine(`tae: ${hint}`);
  await out.flush();
}
