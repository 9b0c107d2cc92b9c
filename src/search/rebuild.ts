/**
 * `browse_events: false`: the job's analysis rebuilt from the indexed events of a time window.
 * Events are replayed in the order the job first saw them, each with its Sigma matches, then
 * the correlation hits inside the window; every file is announced first with its decode
 * diagnostics, so the Overview lists files in the job's order. The records the job skipped as
 * duplicates are replayed in place too, so over the whole time range the rebuild equals the
 * job's own result.
 */
import {
  createAnalyzer,
  type DescribeEvent,
  flattenResults,
  type SigmaMatchInput,
} from '../analysis/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import type { Insight } from '../insights/index.js';
import type { EventIndex } from './event-index.js';
import { restoreEvent } from './restore.js';
import { INDEX_FORMAT, type IndexFormat } from './schema.js';

export interface RebuildOptions {
  /** Inclusive Unix ms; null: unbounded. */
  readonly start: number | null;
  readonly end: number | null;
  readonly describe?: DescribeEvent;
}

/** An event as JSON (duplicates; every event of a format-1 index): JSON has no NaN, so a missing time is null. */
function fromJson(json: string): EvtxEvent {
  const e = JSON.parse(json) as EvtxEvent & { timestamp: number | null };
  return e.timestamp === null ? { ...e, timestamp: Number.NaN } : e;
}

/** A replayed row: [seq, file, sigma, the event as JSON (or null: the columns below), ...columns]. */
type ReplayRow = [
  number,
  number,
  string | null,
  string | null,
  number | null,
  string,
  number,
  string,
  string,
  string,
  string,
  string | null,
  string,
];

/**
 * The window's events and duplicates in arrival order. With `events_seq` (indexes built since
 * issue 14) both sides are read in `seq` order and merged: no sort, whose rows would sit in
 * memory, encrypted indexes keeping temporary storage there. A duplicate is its JSON; an event
 * of format 2 is its columns (row.ts), of format 1 its JSON.
 */
export const replaySql = (bySeq: boolean, format: IndexFormat = INDEX_FORMAT) => {
  const columns =
    format === 1
      ? `event, ${NO_COLUMNS}`
      : 'NULL, ts, event_id, record_id, provider, computer, data, channel, user_sid, extra';
  return `SELECT seq, file, sigma, ${columns} FROM events${bySeq ? ' INDEXED BY events_seq' : ''} WHERE n BETWEEN ? AND ?
   UNION ALL
   SELECT seq, file, NULL, event, ${NO_COLUMNS} FROM duplicates WHERE ? OR ts BETWEEN ? AND ?
   ORDER BY seq`;
};
const NO_COLUMNS = 'NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL';

function replayed(r: ReplayRow): EvtxEvent {
  if (r[3] !== null) return fromJson(r[3]);
  const [, , , , ts, eventId, recordId, provider, computer, data, channel, userSid, extra] = r;
  return restoreEvent({ ts, eventId, recordId, provider, computer, data, channel, userSid, extra });
}

export function rebuildInsights(index: EventIndex, o: RebuildOptions): Insight[] {
  const analyzer = createAnalyzer({
    sigma: index.meta.sigma,
    ...(o.describe ? { describe: o.describe } : {}),
  });
  const rules = new Map<number, SigmaMatchInput['rule']>();
  for (const r of index.prepare('SELECT no, rule FROM rules').raw().all() as [number, string][])
    rules.set(r[0], JSON.parse(r[1]) as SigmaMatchInput['rule']);
  const files = new Map<number, string>();
  for (const [no, name, diagnostics] of index
    .prepare('SELECT no, name, diagnostics FROM files ORDER BY no')
    .raw()
    .all() as [number, string, string][]) {
    files.set(no, name);
    analyzer.addDiagnostics(JSON.parse(diagnostics) as Diagnostic[], { file: name });
  }
  const range = index.rowRange(o.start, o.end) ?? [1, 0];
  const all = o.start === null && o.end === null ? 1 : 0;
  const bySeq =
    index.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = 'events_seq'`).get() !==
    undefined;
  const events = index
    .prepare(replaySql(bySeq, index.format))
    .raw()
    .iterate(
      range[0],
      range[1],
      all,
      o.start ?? Number.MIN_SAFE_INTEGER,
      o.end ?? Number.MAX_SAFE_INTEGER,
    ) as IterableIterator<ReplayRow>;
  for (const r of events) {
    const [, file, sigma] = r;
    const e = replayed(r);
    const source = { file: files.get(file) ?? '' };
    if (!analyzer.add(e, source) || sigma === null) continue;
    for (const no of JSON.parse(sigma) as number[]) {
      const rule = rules.get(no);
      if (rule === undefined) continue;
      analyzer.addSigmaMatch({
        rule,
        recordId: e.recordId,
        timestamp: e.timestamp,
        channel: e.channel,
        computer: e.computer,
        file: source.file,
      });
    }
  }
  const inWindow = (ts: number) => (o.start === null || ts >= o.start) && (o.end === null || ts <= o.end);
  for (const [no, ts] of index.prepare('SELECT rule, ts FROM correlations').raw().all() as [
    number,
    number,
  ][]) {
    const rule = rules.get(no);
    if (rule !== undefined && inWindow(ts)) analyzer.addSigmaMatch({ rule, recordId: 0, timestamp: ts });
  }
  return flattenResults(analyzer.finish());
}
