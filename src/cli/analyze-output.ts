/**
 * What `tae analyze` prints and writes: the short summary (what was read, detections by level,
 * top findings), the findings as records for the other formats, the JSON results document and
 * the report's Sigma rule details.
 */
import { clip, formatTime } from '../analysis/index.js';
import type { Insight, TimelineEntry } from '../insights/index.js';
import type { PayloadScanSummary } from '../payloads/index.js';
import type { ReportRule } from '../report/index.js';
import { evidenceLine, levelRank } from '../sigma/index.js';
import type { AnalyzeResult } from './analyze-run.js';
import { plural } from './common.js';
import type { Detection, Detections } from './detections.js';
import { matchRecords } from './detections.js';
import { column, isoTime, type RecordSet } from './records.js';
import type { SigmaRules } from './sigma-rules.js';

const TOP_FINDINGS = 10;
const TOP_RULES = 10;

function overviewData(insights: readonly Insight[]): Record<string, string> {
  for (const i of insights) if ('Metadata' in i && i.Metadata.title === 'Overview') return i.Metadata.data;
  return {};
}

export function keyEvents(insights: readonly Insight[]): TimelineEntry[] {
  for (const i of insights)
    if ('Timeline' in i && i.Timeline.title === 'Key Event Timeline') return i.Timeline.data;
  return [];
}

/** Host, `<channel>#<record>` and file of each key event, by position (the timeline's sources table). */
export function keyEventSources(
  insights: readonly Insight[],
): { computer: string; reference: string; file: string }[] {
  for (const i of insights)
    if ('Table' in i && i.Table.title === 'Key Event Timeline: Sources')
      return i.Table.data
        .slice(1)
        .map((r) => ({ computer: r[1] ?? '', reference: r[2] ?? '', file: r[3] ?? '' }));
  return [];
}

const clipLine = (s: string, max: number) => clip(s.replace(/\s+/g, ' ').trim(), max);

/** The description, led by the short name unless it already starts with it. */
const findingText = (f: TimelineEntry) =>
  f.description.startsWith(f.short_name) ? f.description : `${f.short_name}: ${f.description}`;

/** Most important first, then earliest. */
export function rankedFindings(entries: readonly TimelineEntry[]): TimelineEntry[] {
  return [...entries].sort(
    (a, b) => levelRank(b.importance) - levelRank(a.importance) || a.timestamp_start - b.timestamp_start,
  );
}

/** Lost records are said on stdout too: a summary must not read as complete when it is not. */
function lossNote(diagnostics: AnalyzeResult['diagnostics']): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return errors === 0
    ? ''
    : `; some records could not be decoded (${plural(errors, 'decoder error')}, on stderr)`;
}

export function summaryText(
  result: AnalyzeResult,
  files: readonly string[],
  sigma: SigmaRules | undefined,
  written: readonly string[],
): string {
  const o = overviewData(result.insights);
  const lines = [
    `Analysed ${plural(files.length - result.failures.length, 'file')}, ${plural(Number(o.records ?? 0), 'record')}` +
      (o.duplicate_records && o.duplicate_records !== '0'
        ? ` (${o.duplicate_records} duplicates skipped)`
        : '') +
      lossNote(result.diagnostics),
    `Time range: ${o.first_event ?? '-'} .. ${o.last_event ?? '-'} UTC`,
    `Computers: ${clipLine(o.computers ?? '-', 160)}`,
  ];
  if (result.failures.length > 0)
    lines.push(`Unreadable: ${result.failures.map((f) => f.message).join('; ')}`);
  if (sigma === undefined) lines.push('Sigma: not run (add --sigma)');
  else {
    const d = result.detections;
    lines.push(`Sigma: ${sigma.label}; ${plural(d.total, 'match')} of ${plural(d.rules().length, 'rule')}`);
    if (d.total > 0) {
      lines.push('Detections by level:');
      for (const [level, n] of d.byLevel()) lines.push(`  ${level.padEnd(13)} ${String(n).padStart(6)}`);
    }
  }
  if (result.payloadScan !== undefined) lines.push(`YARA payloads: ${payloadScanLine(result.payloadScan)}`);
  const findings = rankedFindings(keyEvents(result.insights)).slice(0, TOP_FINDINGS);
  lines.push(findings.length > 0 ? 'Top findings:' : 'Top findings: none');
  for (const f of findings)
    lines.push(
      `  ${f.importance.padEnd(13)} ${formatTime(f.timestamp_start)}  ${f.category.padEnd(14)} ${clipLine(findingText(f), 110)}`,
    );
  if (sigma !== undefined && result.detections.total > 0) {
    lines.push('Top Sigma rules:');
    for (const h of result.detections.rules().slice(0, TOP_RULES)) {
      lines.push(
        `  ${(h.rule.level ?? '-').padEnd(13)} ${String(h.count).padStart(6)}  ${clipLine(h.rule.title, 100)}`,
      );
      const evidence = h.sample[0]?.evidence;
      if (evidence !== undefined && evidence.length > 0)
        lines.push(`${' '.repeat(24)}${clipLine(evidenceLine(evidence), 140)}`);
    }
  }
  for (const w of written) lines.push(`Wrote ${w}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The first match's evidence for a Sigma key event: the timeline names the rule and its first
 * record, so the rule's first kept match with that record is the one it shows.
 */
function sigmaDetails(detections: Detections | undefined): (e: TimelineEntry) => string | null {
  if (detections === undefined) return () => null;
  const byRecord = new Map<number, Detection[]>();
  for (const h of detections.rules())
    for (const m of h.sample) {
      if (m.evidence === undefined) continue;
      const list = byRecord.get(m.recordId) ?? [];
      if (!list.some((x) => x.rule === m.rule)) list.push(m);
      byRecord.set(m.recordId, list);
    }
  return (e) => {
    if (e.category !== 'Sigma') return null;
    const title = e.short_name.endsWith('…') ? e.short_name.slice(0, -1) : e.short_name;
    const m = byRecord.get(e.record_id)?.find((d) => d.rule.title.replace(/\s+/g, ' ').startsWith(title));
    return m?.evidence === undefined ? null : evidenceLine(m.evidence);
  };
}

/**
 * The key event timeline as records (most important first) for --json, --jsonl, --csv,
 * --timesketch; a Sigma finding carries its first match's evidence as `details`.
 */
export function findingRecords(insights: readonly Insight[], detections?: Detections): RecordSet {
  const details = sigmaDetails(detections);
  const sources = keyEventSources(insights);
  const where = new Map(keyEvents(insights).map((e, i) => [e, sources[i]]));
  return {
    columns: [
      column('start', 'Start'),
      column('end', 'End'),
      column('importance', 'Importance'),
      column('category', 'Category'),
      column('computer', 'Computer'),
      column('record_id', 'Record'),
      column('reference', 'Reference'),
      column('file', 'File'),
      column('short_name', 'Finding'),
      column('description', 'Description'),
      column('details', 'Details'),
    ],
    rows: rankedFindings(keyEvents(insights)).map((e) => ({
      start: isoTime(e.timestamp_start),
      end: isoTime(e.timestamp_end),
      importance: e.importance,
      category: e.category,
      computer: where.get(e)?.computer || null,
      record_id: e.record_id === 0 ? null : e.record_id,
      reference: where.get(e)?.reference || null,
      file: where.get(e)?.file || null,
      short_name: e.short_name,
      description: e.description,
      details: details(e),
    })),
    empty: 'No key events.',
    timeline: (r) =>
      typeof r.start === 'string'
        ? {
            time: Date.parse(r.start),
            message: String(r.description).startsWith(String(r.short_name))
              ? String(r.description)
              : `${r.short_name}: ${r.description}`,
            description: 'First Seen',
          }
        : undefined,
  };
}

function rulesDetail(d: Detections) {
  return d.rules().map((h) => ({
    title: h.rule.title,
    id: h.rule.id ?? null,
    kind: h.rule.kind,
    level: h.rule.level ?? null,
    status: h.rule.status ?? null,
    description: h.rule.description ?? null,
    author: h.rule.author ?? null,
    tags: h.rule.tags,
    references: h.rule.references,
    falsepositives: h.rule.falsepositives,
    source: h.rule.source,
    matches: h.count,
    first_seen: isoTime(h.first),
    last_seen: isoTime(h.last),
  }));
}

/** The `--out` document: the job's insights plus every Sigma match with its rule. */
export function resultsDocument(
  result: AnalyzeResult,
  files: readonly string[],
  sigma: SigmaRules | undefined,
) {
  const d = result.detections;
  const o = overviewData(result.insights);
  const counts = sigma?.counts;
  return {
    files,
    // The summary's and the report's count (duplicates left out, as a job leaves them out);
    // `records_read` is every record decoded.
    records: Number(o.records ?? 0),
    duplicate_records: Number(o.duplicate_records ?? 0),
    records_read: result.records,
    sigma:
      counts === undefined
        ? null
        : {
            rules_loaded: counts.loaded,
            rules_evaluated: counts.run,
            rules_not_evaluated: counts.notRun,
            correlations: counts.correlations,
            rules_left_out: counts.leftOut,
            matches: d.total,
            by_level: Object.fromEntries(d.byLevel()),
            rules: rulesDetail(d),
            // The evidence structured (name, value, matched, spans) instead of the one-line details.
            detections: matchRecords(d).rows.map(({ details: _line, ...row }, i) => ({
              ...row,
              evidence: d.kept[i]?.evidence ?? null,
            })),
            evidence_omitted: d.evidenceOmitted,
            detections_truncated: d.total > d.kept.length,
          },
    ...(result.payloadScan === undefined ? {} : { yara_payloads: payloadScanDocument(result.payloadScan) }),
    insights: result.insights,
  };
}

const payloadScanLine = (s: PayloadScanSummary): string =>
  `${plural(s.scanned, 'payload')} scanned, ${plural(s.matches.length + s.matchesDropped, 'match', 'matches')}` +
  (s.timeouts + s.failed > 0 ? `, ${s.timeouts + s.failed} not scanned to the end` : '');

/** `--out`'s `yara_payloads`: each matched payload with its rules and records (the preview is clipped). */
function payloadScanDocument(s: PayloadScanSummary) {
  return {
    scanned: s.scanned,
    bytes: s.bytes,
    repeats: s.repeats,
    timeouts: s.timeouts,
    failed: s.failed,
    matches_dropped: s.matchesDropped,
    diagnostics: s.diagnostics,
    matches: s.matches.map((m) => ({
      kind: m.kind,
      computer: m.computer,
      label: m.label ?? null,
      field: m.provenance.field,
      layers: m.provenance.layers,
      sha256: m.sha256,
      size: m.size,
      binary: m.binary,
      partial: m.partial,
      truncated: m.truncated,
      rules: m.rules,
      occurrences: m.occurrences,
      records: m.records.map((r) => ({
        record_id: r.recordId,
        timestamp: isoTime(r.timestamp),
        event_id: r.eventId,
        channel: r.channel,
        file: r.file ?? null,
      })),
      preview: m.preview,
    })),
  };
}

export function reportRules(d: Detections): ReportRule[] {
  return d.rules().map((h) => ({
    title: h.rule.title,
    kind: h.rule.kind,
    matches: h.count,
    sample: h.sample,
    tags: h.rule.tags,
    references: h.rule.references,
    falsepositives: h.rule.falsepositives,
    source: h.rule.source,
    ...(h.rule.id ? { id: h.rule.id } : {}),
    ...(h.rule.level ? { level: h.rule.level } : {}),
    ...(h.rule.status ? { status: h.rule.status } : {}),
    ...(h.rule.description ? { description: h.rule.description } : {}),
    ...(h.rule.author ? { author: h.rule.author } : {}),
  }));
}
