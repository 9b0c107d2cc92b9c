/**
 * The incremental analyzer: fed every decoded event (and the job's Sigma matches and decode
 * diagnostics), it keeps bounded aggregates and finally builds each result type's insights.
 * Per event: one de-duplication probe, a few counter updates, one registry lookup.
 */
import { invalidOption } from '../errors/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import type { Insight } from '../insights/index.js';
import type { DescribeEvent } from '../messages/index.js';
import { AuthenticationBuilder } from './builders/authentication.js';
import { ComputerFindingsBuilder } from './builders/computer-findings.js';
import { EventIdMetricsBuilder } from './builders/event-id-metrics.js';
import { LogonSummaryBuilder } from './builders/logon-summary.js';
import { NetworkBuilder } from './builders/network.js';
import { OverviewBuilder } from './builders/overview.js';
import { type PayloadScanInput, PayloadYaraBuilder } from './builders/payload-yara.js';
import { PersistenceBuilder } from './builders/persistence.js';
import { ProcessGraphBuilder } from './builders/process-graph.js';
import { ProcessesBuilder } from './builders/processes.js';
import { TimelineBuilder } from './builders/timeline.js';
import { contentHash, RecordSet } from './dedup.js';
import { Digester, type EventDigest } from './digest.js';
import type { FactKind } from './facts.js';
import { TwinIndex } from './twins.js';
import {
  type Builder,
  type EventHead,
  type EventSource,
  RESULT_TYPES,
  type ResultType,
  type SigmaMatchInput,
} from './types.js';

export interface AnalyzerOptions {
  /** The job ran Sigma rules: the Overview gets a Sigma Matches table (default false). */
  readonly sigma?: boolean;
  /** The run scans payloads with YARA: the Overview gets a YARA Payload Matches table (default false). */
  readonly yaraPayloads?: boolean;
  /** Event-id descriptions with %n placeholders, for Windows messages (the lookup module). */
  readonly describe?: DescribeEvent;
  /** Only events in [start, end] (Unix ms, inclusive) are analysed, as a time-filtered rebuild. */
  readonly timeRange?: { readonly start?: number; readonly end?: number };
  /** Largest Process Inference Graph, in nodes (default 150, 10 … 10000). */
  readonly maxGraphNodes?: number;
  /** Records remembered for de-duplication (default 4 000 000; later ones are not checked). */
  readonly maxDedupRecords?: number;
}

export type AnalysisResults = Record<ResultType, Insight[]>;

export interface Analyzer {
  /** Analyses one event; false when it was a duplicate (or outside the time range) and skipped. */
  add(event: EvtxEvent, source: EventSource): boolean;
  /** The same for an event's digest, made where it was decoded (see digest.ts). */
  addDigest(digest: EventDigest, source: EventSource): boolean;
  addSigmaMatch(match: SigmaMatchInput): void;
  addDiagnostics(diagnostics: readonly Diagnostic[], source: EventSource): void;
  /** What the run's payload scan found (with `yaraPayloads`; once, before `finish`). */
  addPayloadScan(scan: PayloadScanInput): void;
  /** Builds the insights of every result type. */
  finish(): AnalysisResults;
}

function validate(o: AnalyzerOptions) {
  const maxGraphNodes = o.maxGraphNodes ?? 150;
  if (!Number.isInteger(maxGraphNodes) || maxGraphNodes < 10 || maxGraphNodes > 10_000)
    throw invalidOption('maxGraphNodes', 'an integer from 10 to 10000', o.maxGraphNodes);
  const maxDedupRecords = o.maxDedupRecords ?? 4_000_000;
  if (!Number.isInteger(maxDedupRecords) || maxDedupRecords < 0)
    throw invalidOption('maxDedupRecords', 'a non-negative integer', o.maxDedupRecords);
  if (o.describe !== undefined && typeof o.describe !== 'function')
    throw invalidOption('describe', 'a function', o.describe);
  const start = o.timeRange?.start ?? Number.NEGATIVE_INFINITY;
  const end = o.timeRange?.end ?? Number.POSITIVE_INFINITY;
  if (Number.isNaN(start) || Number.isNaN(end) || start > end)
    throw invalidOption('timeRange', 'start ≤ end (Unix ms)', o.timeRange);
  return { maxGraphNodes, maxDedupRecords, start, end, ranged: o.timeRange !== undefined };
}

export function createAnalyzer(options: AnalyzerOptions = {}): Analyzer {
  const o = validate(options);
  const overview = new OverviewBuilder(options.sigma === true);
  const timeline = new TimelineBuilder();
  const graph = new ProcessGraphBuilder(o.maxGraphNodes);
  const payloadYara = options.yaraPayloads === true ? new PayloadYaraBuilder() : null;
  const builders: Builder[] = [
    graph,
    timeline,
    new ProcessesBuilder(),
    new NetworkBuilder(),
    new AuthenticationBuilder(),
    new PersistenceBuilder(),
    // Overview summaries (issue 17), listed after the Overview's own insights.
    new LogonSummaryBuilder(),
    new EventIdMetricsBuilder(),
    new ComputerFindingsBuilder(options.sigma === true),
  ];
  const eventHooks = builders.filter((b) => b.countEvent !== undefined);
  const sigmaHooks = builders.filter((b) => b.countSigmaMatch !== undefined);
  const consumers = new Map<FactKind, Builder[]>();
  for (const b of builders) for (const k of b.consumes) consumers.set(k, [...(consumers.get(k) ?? []), b]);
  const dedup = new RecordSet(o.maxDedupRecords);
  let outsideRange = 0;
  let extractorFailures = 0;

  const twins = new TwinIndex(25_000); // ~0.5 KB an entry (issue 14: 100,000 held 49 MB)
  const digester = new Digester(options.describe);

  /** Counts a new event in range; false for one outside the range or seen before. */
  const admit = (e: EventHead, hash: number, source: EventSource): boolean => {
    if (o.ranged && !(e.timestamp >= o.start && e.timestamp <= o.end)) {
      outsideRange++;
      return false;
    }
    if (!dedup.addRecord(e, hash)) {
      overview.duplicate(source);
      timeline.duplicate(e, source);
      return false;
    }
    overview.event(e, source);
    for (let i = 0; i < eventHooks.length; i++) eventHooks[i]!.countEvent!(e);
    return true;
  };
  const apply = ({ facts, failures }: Pick<EventDigest, 'facts' | 'failures'>, source: EventSource): void => {
    extractorFailures += failures;
    if (facts === null) return;
    for (const f of facts) {
      const fact = f.kind === 'processStart' && twins.isTwin(f) ? { ...f, twin: true } : f;
      const list = consumers.get(fact.kind);
      if (list !== undefined) for (const b of list) b.consume(fact, source);
    }
  };

  return {
    add(e, source) {
      if (!admit(e, contentHash(e), source)) return false;
      apply(digester.extract(e), source);
      return true;
    },
    addDigest(d, source) {
      if (!admit(d, d.hash, source)) return false;
      apply(d, source);
      return true;
    },
    addSigmaMatch(m) {
      if (o.ranged && !(m.timestamp >= o.start && m.timestamp <= o.end)) return;
      overview.sigma(m);
      timeline.sigma(m);
      for (const b of sigmaHooks) b.countSigmaMatch!(m);
    },
    addDiagnostics(diagnostics, source) {
      overview.diagnostics(diagnostics, source);
    },
    addPayloadScan(scan) {
      payloadYara?.add(scan);
    },
    finish() {
      const extra: Record<string, string> = {
        duplicate_records: String(dedup.duplicates),
        ...(dedup.unchecked > 0 ? { records_not_checked_for_duplicates: String(dedup.unchecked) } : {}),
        ...(o.ranged ? { records_outside_time_range: String(outsideRange) } : {}),
        ...(graph.dropped > 0 ? { processes_left_out_of_graph: String(graph.dropped) } : {}),
        ...(extractorFailures > 0 ? { events_not_understood: String(extractorFailures) } : {}),
        ...(payloadYara !== null ? { yara_payloads: payloadYara.overviewLine() } : {}),
      };
      if (payloadYara !== null) timeline.addEntries(payloadYara.timelineEntries());
      const results = Object.fromEntries(RESULT_TYPES.map((t) => [t, [] as Insight[]])) as AnalysisResults;
      results.Overview = overview.finish(extra);
      if (payloadYara !== null) results.Overview.push(payloadYara.table());
      for (const b of builders) results[b.resultType].push(...b.finish());
      return results;
    },
  };
}

/** Every insight of the results, in result-type order (the job's `insights` array). */
export const flattenResults = (r: AnalysisResults): Insight[] => RESULT_TYPES.flatMap((t) => r[t]);
