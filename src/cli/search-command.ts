/**
 * `tae search <job_id> [text]`: the search endpoint over a completed parse job of the engine
 * in the data directory. By default it browses raw events (an `Event Table` per page);
 * `--summary` asks for the job's results rebuilt for the time window instead.
 */
import type { Command } from 'commander';
import { INDEX_TABLE_COLUMNS, type Insight } from '../insights/index.js';
import { collect, intFlag, usage } from './common.js';
import { type EngineFlags, engineOptions, withEngine } from './engine-flags.js';
import { type FormatFlags, formatOf, formatOptions } from './formats.js';
import { writeRecords } from './output.js';
import { column, type Row } from './records.js';

interface SearchFlags extends EngineFlags, FormatFlags {
  filter?: string[];
  from?: string;
  to?: string;
  page?: string;
  show?: string;
  summary?: boolean;
}

const KEYS = ['event_id', 'record_id', 'timestamp', 'provider', 'computer', 'message', 'event_data'];

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
  const rows: Row[] = [];
  for (const i of insights) {
    if (!('IndexTable' in i)) continue;
    for (const [cells, data] of i.IndexTable.data)
      rows.push({
        ...Object.fromEntries(cells.map((c, n) => [KEYS[n]!, c])),
        event_data: Object.entries(data)
          .map(([k, v]) => `${k}=${v}`)
          .join('; '),
      });
  }
  return rows;
}

export function searchCommand(program: Command): void {
  const command = program
    .command('search')
    .description('search the events of a completed parse job (engine in the data directory)')
    .argument('<job_id>', 'a completed winevtx job')
    .argument('[text]', 'case-insensitive text matched in every field', '')
    .option(
      '--filter <filter>',
      'FIELD:OPERATOR:VALUE (fields: event_id, provider, computer, details.<name>…; repeatable)',
      collect,
    )
    .option('--from <time>', 'start of the time window (ISO 8601 or Unix ms)')
    .option('--to <time>', 'end of the time window (ISO 8601 or Unix ms)')
    .option('--page <n>', 'page, 1 to 10', '1')
    .option('--show <n>', 'events per page, 1 to 100', '10')
    .option('--summary', "the job's results rebuilt for the time window, as JSON, instead of events");
  formatOptions(engineOptions(command), { timesketch: true }).action(
    async (jobId: string, text: string, flags: SearchFlags) => {
      const format = formatOf(flags);
      const start = timeFlag('--from', flags.from);
      const end = timeFlag('--to', flags.to);
      const request = {
        job_id: jobId,
        search: text,
        browse_events: flags.summary !== true,
        page: intFlag('--page', flags.page, 1, 10),
        show: intFlag('--show', flags.show, 1, 100),
        ...(flags.filter?.length ? { filter: flags.filter.map(parseFilter) } : {}),
        ...(start !== undefined ? { start_time: start } : {}),
        ...(end !== undefined ? { end_time: end } : {}),
      };
      const response = await withEngine(flags, (engine, auth) => engine.search(request, auth));
      if (flags.summary) {
        process.stdout.write(`${JSON.stringify(response, null, 2)}\n`);
        return;
      }
      const columns = KEYS.map((k, i) => column(k, INDEX_TABLE_COLUMNS[i] ?? k));
      await writeRecords(
        {
          columns,
          rows: eventRows('insights' in response ? (response.insights as Insight[]) : []),
          empty: 'No matching events.',
          timeline: (r) => ({
            time: Date.parse(`${String(r.timestamp).replace(' ', 'T')}Z`),
            message: `${r.event_id} ${r.provider}: ${r.message}`,
            description: 'Event Recorded',
          }),
        },
        format,
      );
    },
  );
}
