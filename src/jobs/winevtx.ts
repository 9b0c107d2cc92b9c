/**
 * The `winevtx` runner, summary level: decodes every file of the job and reports what it
 * holds. Insights: an `Overview` Metadata, an `Event counts` Table (file, channel, provider,
 * event id, count), a `Top event IDs` Chart, a `Parse diagnostics` Table when the decoder
 * reported problems, and one Error insight per file that could not be read as EVTX. The job
 * fails only when no file could be read. The analysis insights (timeline, processes, Sigma)
 * replace this summary in a later issue.
 */
import { isTaeError, TaeError } from '../errors/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import { type DecodePool, parseEvtx } from '../parse/index.js';
import { errorInsight, type Insight } from './insights.js';
import { utcText } from './time-text.js';
import type { JobRunner } from './types.js';

export interface WinevtxRunnerOptions {
  /** The engine's shared decode pool, created on first use; files below `inlineBelowBytes` decode inline. */
  readonly pool?: () => DecodePool;
  /** Default 8 MiB: below it, handing chunks to threads costs more than it saves. */
  readonly inlineBelowBytes?: number;
}

const MAX_TABLE_ROWS = 5000;
const MAX_DIAGNOSTIC_ROWS = 1000;
const TOP_EVENT_IDS = 20;

interface Tally {
  records: number;
  first: number;
  last: number;
  readonly counts: Map<string, { row: string[]; count: number }>;
  readonly computers: Set<string>;
  readonly channels: Set<string>;
  readonly byEventId: Map<string, number>;
  readonly diagnostics: (Diagnostic & { file: string })[];
}

export function createWinevtxRunner(options: WinevtxRunnerOptions = {}): JobRunner<'winevtx'> {
  const inlineBelow = options.inlineBelowBytes ?? 8 * 1024 * 1024;
  return async (input, ctx) => {
    const t: Tally = {
      records: 0,
      first: Number.POSITIVE_INFINITY,
      last: Number.NEGATIVE_INFINITY,
      counts: new Map(),
      computers: new Set(),
      channels: new Set(),
      byEventId: new Map(),
      diagnostics: [],
    };
    const errors: Insight[] = [];
    let parsed = 0;
    for (const id of input.file_ids) {
      let name = id;
      try {
        const file = await ctx.readFile(id);
        name = file.name;
        const pooled = options.pool !== undefined && file.size >= inlineBelow;
        const parse = parseEvtx(file.source, {
          label: file.name,
          signal: ctx.signal,
          ...(pooled ? { pool: options.pool!() } : {}),
        });
        for await (const r of parse) if (r.event !== undefined) count(t, file.name, r.event);
        for (const d of parse.diagnostics) t.diagnostics.push({ ...d, file: file.name });
        parsed++;
      } catch (e) {
        if (ctx.signal.aborted) throw new TaeError('CANCELLED', 'job cancelled', { cause: e });
        if (!isTaeError(e)) throw e;
        errors.push(errorInsight(`${name}: ${e.message}`));
      }
    }
    if (parsed === 0) return errors;
    return [overview(t, parsed, input.run_sigma_rules), ...tables(t), ...errors];
  };
}

function count(t: Tally, file: string, e: EvtxEvent): void {
  t.records++;
  if (e.timestamp < t.first) t.first = e.timestamp;
  if (e.timestamp > t.last) t.last = e.timestamp;
  if (e.computer) t.computers.add(e.computer);
  t.channels.add(e.channel);
  const id = String(e.eventId);
  t.byEventId.set(id, (t.byEventId.get(id) ?? 0) + 1);
  const key = `${file}\0${e.channel}\0${e.provider}\0${id}`;
  const hit = t.counts.get(key);
  if (hit === undefined) t.counts.set(key, { row: [file, e.channel, e.provider, id], count: 1 });
  else hit.count++;
}

function overview(t: Tally, files: number, sigmaRequested: boolean): Insight {
  const errors = t.diagnostics.filter((d) => d.severity === 'error').length;
  const data: Record<string, string> = {
    files: String(files),
    records: String(t.records),
    first_event: utcText(t.first),
    last_event: utcText(t.last),
    computers: [...t.computers].sort().slice(0, 100).join(', '),
    channels: [...t.channels].sort().slice(0, 100).join(', '),
    diagnostics: `${errors} errors, ${t.diagnostics.length - errors} warnings`,
    sigma_rules: sigmaRequested ? 'requested; not run: no Sigma rule set is configured' : 'not requested',
  };
  return { Metadata: { title: 'Overview', data, category: 'General' } };
}

function tables(t: Tally): Insight[] {
  const rows = [...t.counts.values()]
    .sort((a, b) => (a.row[0]! < b.row[0]! ? -1 : a.row[0]! > b.row[0]! ? 1 : b.count - a.count))
    .slice(0, MAX_TABLE_ROWS)
    .map((c) => [...c.row, String(c.count)]);
  const top = [...t.byEventId]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP_EVENT_IDS) as [string, number][];
  const out: Insight[] = [
    {
      Table: {
        title: 'Event counts',
        data: [['File', 'Channel', 'Provider', 'Event ID', 'Count'], ...rows],
        category: 'General',
      },
    },
    { Chart: { title: 'Top event IDs', data: top, category: 'General', display_mode: 'Chart' } },
  ];
  if (t.diagnostics.length > 0) {
    const head = ['File', 'Severity', 'Code', 'Chunk', 'Offset', 'Message'];
    const diag = t.diagnostics
      .slice(0, MAX_DIAGNOSTIC_ROWS)
      .map((d) => [d.file, d.severity, d.code, String(d.chunk), String(d.offset), d.message]);
    out.push({ Table: { title: 'Parse diagnostics', data: [head, ...diag], category: 'General' } });
  }
  return out;
}
