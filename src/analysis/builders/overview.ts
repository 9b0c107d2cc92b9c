/**
 * Overview: what the job read (files, records, duplicates, time range, computers, channels, decode
 * diagnostics) as Metadata; events per channel, top event ids and events over time as Charts; and,
 * when Sigma ran, a Table of matches per rule.
 */
import type { Diagnostic } from '../../evtx/index.js';
import { chartInsight, type Insight, metadataInsight, tableInsight } from '../../insights/index.js';
import { Span, Tally, topText } from '../aggregate.js';
import { sigmaLevelRank } from '../importance.js';
import { PairMap } from '../pair-map.js';
import { cleanCell, cleanRows, formatSpan, formatTime, oneLine } from '../text.js';
import type { EventHead, EventSource, SigmaMatchInput } from '../types.js';
import { bucketLabel, TimeBuckets } from './time-buckets.js';

interface FileStats {
  records: number;
  duplicates: number;
  errors: number;
  warnings: number;
}

interface LogStats {
  provider: string;
  channel: string;
  computer: string;
  count: number;
  eventIds: Map<number, number>;
}

const MAX_LOGS = 5000;
const MAX_EVENT_IDS_PER_LOG = 2000;

interface RuleStats {
  title: string;
  id: string;
  level: string;
  span: Span;
  computers: Tally;
  tags: readonly string[];
}

export const SIGMA_COLUMNS = [
  'Rule',
  'Level',
  'Count',
  'First Seen',
  'Last Seen',
  'Computers',
  'Rule ID',
  'Tags',
] as const;

export class OverviewBuilder {
  records = 0;
  private readonly files = new Map<string, FileStats>();
  private readonly span = new Span();
  private withoutTime = 0;
  /** Counts per (provider, channel, computer) and event id; tallies are made at the end. */
  private readonly logs = new Map<string, LogStats>();
  /** The same logs by computer, provider and channel, found without joining them (pair-map.ts). */
  private readonly byComputer = new Map<string, PairMap<LogStats>>();
  private lastLog: LogStats | null = null;
  private lastFileName = '';
  private lastFile: FileStats | undefined;
  private readonly buckets = new TimeBuckets();
  private readonly diagnosticCodes = new Tally(100);
  private diagnosticErrors = 0;
  private diagnosticWarnings = 0;
  private readonly diagnosticSamples: string[] = [];
  private readonly rules = new Map<string, RuleStats>();
  private sigmaMatches = 0;

  constructor(private readonly sigmaEnabled: boolean) {}

  private file(name: string): FileStats | undefined {
    let f = this.files.get(name);
    if (f === undefined && this.files.size < 1000) {
      f = { records: 0, duplicates: 0, errors: 0, warnings: 0 };
      this.files.set(name, f);
    }
    return f;
  }

  /** Per event: counters only, the file and log looked up again only when they change. */
  event(e: EventHead, source: EventSource): void {
    this.records++;
    if (source.file !== this.lastFileName || this.lastFile === undefined) {
      this.lastFileName = source.file;
      this.lastFile = this.file(source.file);
    }
    if (this.lastFile !== undefined) this.lastFile.records++;
    this.span.add(e.timestamp, e.recordId);
    if (Number.isFinite(e.timestamp)) this.buckets.add(e.timestamp);
    else this.withoutTime++;
    let log = this.lastLog;
    if (
      log === null ||
      log.provider !== e.provider ||
      log.channel !== e.channel ||
      log.computer !== e.computer
    ) {
      log = this.logOf(e);
      this.lastLog = log;
    }
    log.count++;
    const id = log.eventIds.size < MAX_EVENT_IDS_PER_LOG || log.eventIds.has(e.eventId) ? e.eventId : -1;
    log.eventIds.set(id, (log.eventIds.get(id) ?? 0) + 1);
  }

  private logOf(e: EventHead): LogStats {
    const full = this.logs.size >= MAX_LOGS;
    // Once full, every event counts as `(other)`, a known log's too (as before the lookup).
    const known = full ? undefined : this.byComputer.get(e.computer)?.get(e.provider, e.channel);
    if (known !== undefined) return known;
    const [provider, channel, computer] = full
      ? ['(other)', '(other)', '(other)']
      : [e.provider, e.channel, e.computer];
    const key = `${provider}\u0000${channel}\u0000${computer}`;
    let log = this.logs.get(key);
    if (log === undefined) {
      log = { provider, channel, computer, count: 0, eventIds: new Map() };
      this.logs.set(key, log);
    }
    if (!full) {
      let byLog = this.byComputer.get(computer);
      if (byLog === undefined) {
        byLog = new PairMap();
        this.byComputer.set(computer, byLog);
      }
      byLog.set(provider, channel, log);
    }
    return log;
  }

  private tallies(): { channels: Tally; eventIds: Tally; providers: Tally; computers: Tally } {
    const t = {
      channels: new Tally(MAX_LOGS),
      eventIds: new Tally(MAX_LOGS * 10),
      providers: new Tally(MAX_LOGS),
      computers: new Tally(MAX_LOGS),
    };
    for (const log of this.logs.values()) {
      t.channels.add(log.channel || '(none)', log.count);
      t.providers.add(log.provider || '(none)', log.count);
      t.computers.add(log.computer || '(none)', log.count);
      for (const [id, n] of log.eventIds)
        t.eventIds.add(`${id < 0 ? 'other' : id} ${log.channel || log.provider}`, n);
    }
    return t;
  }

  duplicate(source: EventSource): void {
    const f = this.file(source.file);
    if (f !== undefined) f.duplicates++;
  }

  diagnostics(list: readonly Diagnostic[], source: EventSource): void {
    const f = this.file(source.file);
    for (const d of list) {
      this.diagnosticCodes.add(d.code);
      if (d.severity === 'error') this.diagnosticErrors++;
      else this.diagnosticWarnings++;
      if (f !== undefined) {
        if (d.severity === 'error') f.errors++;
        else f.warnings++;
      }
      if (this.diagnosticSamples.length < 5)
        this.diagnosticSamples.push(`${source.file}: ${oneLine(d.message, 200)}`);
    }
  }

  sigma(m: SigmaMatchInput): void {
    this.sigmaMatches++;
    const key = m.rule.id || m.rule.title;
    let r = this.rules.get(key);
    if (r === undefined) {
      if (this.rules.size >= 20_000) return;
      r = {
        title: oneLine(m.rule.title, 200),
        id: m.rule.id ?? '',
        level: m.rule.level ?? '',
        span: new Span(),
        computers: new Tally(100),
        tags: [...(m.rule.tags ?? [])].slice(0, 20),
      };
      this.rules.set(key, r);
    }
    r.span.add(m.timestamp, m.recordId ?? 0);
    if (m.computer) r.computers.add(m.computer);
  }

  finish(extra: Readonly<Record<string, string>>): Insight[] {
    const { channels, eventIds, providers, computers } = this.tallies();
    const files = [...this.files].map(([name, f]) => {
      const notes = [
        f.duplicates > 0 ? `${f.duplicates} duplicates skipped` : '',
        f.errors > 0 ? `${f.errors} decode errors` : '',
        f.warnings > 0 ? `${f.warnings} decode warnings` : '',
      ].filter(Boolean);
      return `${name}: ${f.records} records${notes.length ? ` (${notes.join(', ')})` : ''}`;
    });
    const sigma = this.sigmaEnabled
      ? `${this.sigmaMatches} matches of ${this.rules.size} rules`
      : 'not requested';
    const data: Record<string, string> = {
      files: files.join('\n') || 'none',
      records: String(this.records),
      ...extra,
      first_event: formatTime(this.span.first),
      last_event: formatTime(this.span.last),
      time_span: this.span.hasTime ? formatSpan(this.span.last - this.span.first) : '-',
      records_without_time: String(this.withoutTime),
      computers: topText(computers, 20) || 'none',
      channels: topText(channels, 20) || 'none',
      providers: topText(providers, 20) || 'none',
      decode_errors: String(this.diagnosticErrors),
      decode_warnings: String(this.diagnosticWarnings),
      diagnostics: topText(this.diagnosticCodes, 20) || 'none',
      diagnostic_samples: this.diagnosticSamples.join('\n') || 'none',
      sigma,
    };
    for (const k of Object.keys(data)) data[k] = cleanCell(data[k]!, 20_000);
    const out: Insight[] = [metadataInsight('Overview', data, 'General')];
    out.push(chartInsight('Overview: Events per Channel', withOther(channels, 20), 'General'));
    out.push(chartInsight('Overview: Top Event IDs', withOther(eventIds, 20), 'General'));
    const series = this.buckets.series(500);
    out.push(
      chartInsight(
        `Overview: Events per ${bucketLabel(series.unit)}`,
        series.points.map(([t, n]): [string, number] => [series.format(t), n]),
        'General',
      ),
    );
    if (this.sigmaEnabled) out.push(this.sigmaTable());
    return out;
  }

  private sigmaTable(): Insight {
    const rules = [...this.rules.values()].sort(
      (a, b) =>
        sigmaLevelRank(b.level) - sigmaLevelRank(a.level) ||
        b.span.count - a.span.count ||
        (a.title < b.title ? -1 : a.title > b.title ? 1 : 0),
    );
    const rows = rules.map((r) => [
      r.title,
      r.level || '-',
      String(r.span.count),
      formatTime(r.span.first),
      formatTime(r.span.last),
      topText(r.computers, 5) || '-',
      r.id || '-',
      r.tags.join(', ') || '-',
    ]);
    return tableInsight('Overview: Sigma Matches', SIGMA_COLUMNS, cleanRows(rows), 'Sigma');
  }
}

/** The top `n` entries of a tally as chart points, the rest summed as `(other)`. */
function withOther(t: Tally, n: number): [string, number][] {
  const top = t.top(n);
  const rest = t.total - top.reduce((s, [, v]) => s + v, 0);
  const points = top.map(([label, n]): [string, number] => [oneLine(label, 200), n]);
  return rest > 0 ? [...points, ['(other)', rest]] : points;
}
