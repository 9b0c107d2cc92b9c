/**
 * The Sigma file jobs (`sigma_file_community`, `sigma_file_custom`): every EVTX file of the
 * job decoded and tested against the rules through their log-source variants, correlations
 * run over the matches. The spec does not show the layout; ours: a `Sigma Rule Matches` Table
 * (one row per file and rule), a `Sigma Timeline` (one entry per file and rule), a `Sigma Run`
 * Metadata (what was loaded, mapped and matched) and Error insights for unreadable files and
 * rules that did not load. A custom job whose rule text loads no rule fails.
 */
import { correlationErrorInsight, formatTime, importanceOfSigma } from '../analysis/index.js';
import { TaeError } from '../errors/index.js';
import {
  errorInsight,
  type Insight,
  metadataInsight,
  type TimelineEntry,
  tableInsight,
  timelineInsight,
} from '../insights/index.js';
import { decodeFiles } from '../pipeline/index.js';
import {
  type CompiledSigma,
  compileRuleSet,
  type LoadResult,
  loadRules,
  type RuleSet,
  ruleFileStem,
  SigmaSession,
} from '../sigma/index.js';
import { type DecodeOptions, failureInsights, jobDecoding, jobFiles } from './job-files.js';
import type { JobRunner } from './types.js';

export interface SigmaFileRunnerOptions extends DecodeOptions {
  /** The community rules and their compiled rule set, asked for when a community job runs. */
  readonly community?: () => CompiledSigma | Promise<CompiledSigma>;
  /** Base matches kept for correlation (default 1,000,000, within 64 MiB; past either, `correlation.limit`). */
  readonly maxMatches?: number;
}

interface Row {
  readonly file: string;
  readonly rule: string;
  readonly title: string;
  readonly level: string;
  readonly status: string;
  readonly description: string;
  count: number;
  first: number;
  last: number;
  firstRecord: number;
}

const COLUMNS = ['File', 'Rule', 'Title', 'Level', 'Matches', 'First Seen', 'Last Seen'];

type RuleMeta = Omit<Row, 'file' | 'count' | 'first' | 'last' | 'firstRecord'>;

/** One match (or one correlation hit spanning `start`..`end`) into its (file, rule) row. */
function tally(
  rows: Map<string, Row>,
  file: string,
  meta: RuleMeta,
  start: number,
  end: number,
  recordId: number,
) {
  const key = `${file}\u0000${meta.rule}\u0000${meta.title}`;
  let row = rows.get(key);
  if (row === undefined) {
    row = { file, ...meta, count: 0, first: start, last: end, firstRecord: recordId };
    rows.set(key, row);
  }
  row.count++;
  if (start < row.first) {
    row.first = start;
    row.firstRecord = recordId;
  }
  if (end > row.last) row.last = end;
}

function metaOf(
  doc: { title: string; source: string; level?: string; status?: string; description?: string },
  custom: boolean,
): RuleMeta {
  return {
    rule: custom ? doc.title : ruleFileStem(doc.source),
    title: doc.title,
    level: doc.level ?? '',
    status: doc.status ?? '',
    description: doc.description ?? '',
  };
}

function insightsOf(rows: readonly Row[], run: Record<string, string>): Insight[] {
  const sorted = [...rows].sort((a, b) => a.first - b.first || a.file.localeCompare(b.file));
  const time = (ms: number) => (Number.isFinite(ms) ? formatTime(ms) : '');
  const cells = sorted.map((r) => [
    r.file,
    r.rule,
    r.title,
    r.level,
    String(r.count),
    time(r.first),
    time(r.last),
  ]);
  const timeline: TimelineEntry[] = sorted
    .filter((r) => Number.isFinite(r.first))
    .map((r) => ({
      timestamp_start: r.first,
      timestamp_end: r.last === r.first ? null : r.last,
      record_id: r.firstRecord,
      short_name: r.title,
      description: `${r.count} match${r.count === 1 ? '' : 'es'} in ${r.file}${r.description ? `: ${r.description}` : ''}`,
      category: 'Sigma',
      importance: importanceOfSigma(r.level, r.status),
    }));
  return [
    tableInsight('Sigma Rule Matches', COLUMNS, cells, 'Sigma'),
    timelineInsight('Sigma Timeline', timeline, 'Sigma'),
    metadataInsight('Sigma Run', run, 'Sigma'),
  ];
}

export function createSigmaFileRunner(
  options: SigmaFileRunnerOptions = {},
): JobRunner<'sigma_file_community' | 'sigma_file_custom'> {
  return async (input, ctx) => {
    const errors: Insight[] = [];
    let loaded: LoadResult;
    let ruleSet: RuleSet;
    if (input.type === 'sigma_file_custom') {
      loaded = loadRules(input.rule, 'custom rule');
      for (const d of loaded.diagnostics)
        errors.push(errorInsight(`Invalid Sigma rule format: ${d.title ? `${d.title}: ` : ''}${d.message}`));
      if (loaded.rules.length === 0)
        return errors.length > 0 ? errors : [errorInsight('Invalid Sigma rule format: no detection rule')];
      ruleSet = compileRuleSet({ rules: loaded.rules, filters: loaded.filters });
    } else {
      if (options.community === undefined)
        throw new TaeError('INTERNAL', 'no community Sigma rules are configured');
      ({ loaded, ruleSet } = await options.community());
    }
    const custom = input.type === 'sigma_file_custom';
    const session = new SigmaSession(loaded, ruleSet, {
      ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
    });
    const rows = new Map<string, Row>();
    let events = 0;
    const decoded = await decodeFiles(
      jobFiles(ctx, input.file_ids),
      { ...jobDecoding(ctx, options), sigma: { loaded, ruleSet } },
      {
        event(e, file, matched) {
          events++;
          const at = { timestamp: e.timestamp, recordId: e.recordId };
          const rules = session.evtxRules(e, at, matched);
          for (const rule of rules)
            tally(rows, file.name, metaOf(rule, custom), e.timestamp, e.timestamp, e.recordId);
        },
      },
    );
    errors.push(...failureInsights(decoded));
    const files = decoded.parsed;
    if (files === 0) return errors;
    const correlation = session.finish();
    for (const h of correlation.hits)
      tally(
        rows,
        'all files',
        metaOf(h.correlation, custom),
        h.firstTimestamp,
        h.lastTimestamp,
        h.recordIds[0] ?? 0,
      );
    const coverage = ruleSet.coverage();
    const run: Record<string, string> = {
      files: String(files),
      events: String(events),
      rules: String(coverage.rules),
      mapped_rules: String(coverage.mapped),
      variants: String(coverage.variants),
      correlations: String(loaded.correlations.length),
      matches: String([...rows.values()].reduce((n, r) => n + r.count, 0)),
      ...Object.fromEntries(
        Object.entries(coverage.byCode).map(([code, n]) => [`not_run.${code}`, String(n)]),
      ),
    };
    errors.push(...correlation.diagnostics.map(correlationErrorInsight));
    return [...insightsOf([...rows.values()], run), ...errors];
  };
}
