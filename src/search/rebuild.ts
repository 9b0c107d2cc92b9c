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

export interface RebuildOptions {
  /** Inclusive Unix ms; null: unbounded. */
  readonly start: number | null;
  readonly end: number | null;
  readonly describe?: DescribeEvent;
}

/** The flat event as stored (JSON has no NaN: a missing time was written as null). */
function restore(json: string): EvtxEvent {
  const e = JSON.parse(json) as EvtxEvent & { timestamp: number | null };
  return e.timestamp === null ? { ...e, timestamp: Number.NaN } : e;
}

/**
 * The window's events and duplicates in arrival order. With `events_seq` (indexes built since
 * issue 14) both sides are read in `seq` order and merged: no sort, whose rows (each event's
 * JSON) would sit in memory, encrypted indexes keeping temporary storage there.
 */
export const replaySql = (bySeq: boolean) =>
  `SELECT seq, file, sigma, event FROM events${bySeq ? ' INDEXED BY events_seq' : ''} WHERE n BETWEEN ? AND ?
   UNION ALL
   SELECT seq, file, NULL, event FROM duplicates WHERE ? OR ts BETWEEN ? AND ?
   ORDER BY seq`;

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
    .prepare(replaySql(bySeq))
    .raw()
    .iterate(
      range[0],
      range[1],
      all,
      o.start ?? Number.MIN_SAFE_INTEGER,
      o.end ?? Number.MAX_SAFE_INTEGER,
    ) as IterableIterator<[number, number, string | null, string]>;
  for (const [, file, sigma, json] of events) {
    const e = restore(json);
    if (!analyzer.add(e, { file: files.get(file) ?? '' }) || sigma === null) continue;
    for (const no of JSON.parse(sigma) as number[]) {
      const rule = rules.get(no);
      if (rule === undefined) continue;
      analyzer.addSigmaMatch({
        rule,
        recordId: e.recordId,
        timestamp: e.timestamp,
        channel: e.channel,
        computer: e.computer,
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
