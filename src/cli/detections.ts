/**
 * Sigma matches as a run collects them: every match counted per rule, the first ones kept
 * (bounded, so a noisy rule over a huge log cannot exhaust memory), and the views commands
 * print: one row per match, counts per level.
 */
import type { EvtxEvent } from '../evtx/index.js';
import {
  type EvidenceField,
  evidenceLine,
  LEVELS,
  levelRank,
  matchEvidence,
  type RuleMeta,
  type SigmaEvent,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../sigma/index.js';
import type { Format } from './formats.js';
import { mitreCell } from './mitre.js';
import { type Output, RecordStream } from './output.js';
import { column, isoTime, pathColumn, type RecordSet, type Row } from './records.js';
import { TimeOrder } from './time-order.js';

export interface MatchPlace {
  /** 0 for a correlation hit without records. */
  readonly recordId: number;
  readonly timestamp: number;
  readonly eventId?: number;
  readonly computer?: string;
  readonly channel?: string;
  readonly file?: string;
}

export interface Detection extends MatchPlace {
  readonly rule: RuleMeta & { readonly kind: 'rule' | 'correlation' };
  /** The event's key fields (sigma/evidence.ts); absent for correlations and past the budget. */
  readonly evidence?: readonly EvidenceField[];
}

/** The matched event, as the caller has it. */
export type MatchedEventSource = SigmaEvent | EvtxEvent;

/**
 * Evidence is kept for the first matches of each rule and within a total size, so a noisy
 * rule over a huge log neither exhausts memory nor leaves a rarer rule without its evidence.
 */
export const EVIDENCE_PER_RULE = 5_000;
export const EVIDENCE_BUDGET_CHARS = 16 * 1024 * 1024;

export interface RuleHits {
  readonly rule: Detection['rule'];
  count: number;
  first: number;
  last: number;
  readonly sample: Detection[];
  /** Matches of the rule that were given evidence. */
  withEvidence: number;
}

export class Detections {
  /** Matches kept in order of arrival (`total` counts them all). */
  readonly kept: Detection[] = [];
  total = 0;
  /** Kept matches left without evidence by the budget. */
  evidenceOmitted = 0;
  private evidenceChars = 0;
  private readonly byRule = new Map<Detection['rule'], RuleHits>();

  /**
   * @param onKept where kept matches go instead of `kept` (a stream that writes them): then
   * every match is kept, as memory holds none of them
   */
  constructor(
    private readonly maxKept = 100_000,
    private readonly maxSample: number = 200,
    private readonly onKept?: (d: Detection) => void,
  ) {}

  /** `event` (when given) is read for the evidence of a kept match and not held. */
  add(rule: Detection['rule'], place: MatchPlace, event?: MatchedEventSource): void {
    this.total++;
    let hits = this.byRule.get(rule);
    if (hits === undefined) {
      hits = {
        rule,
        count: 0,
        first: Number.POSITIVE_INFINITY,
        last: Number.NEGATIVE_INFINITY,
        sample: [],
        withEvidence: 0,
      };
      this.byRule.set(rule, hits);
    }
    hits.count++;
    if (place.timestamp < hits.first) hits.first = place.timestamp;
    if (place.timestamp > hits.last) hits.last = place.timestamp;
    const keep = this.onKept !== undefined || this.kept.length < this.maxKept;
    const sample = hits.sample.length < this.maxSample;
    if (!keep && !sample) return;
    const evidence = this.evidenceOf(rule, hits, event);
    const detection: Detection = evidence === undefined ? { rule, ...place } : { rule, ...place, evidence };
    if (keep) {
      if (this.onKept !== undefined) this.onKept(detection);
      else this.kept.push(detection);
    }
    if (sample) hits.sample.push(detection);
  }

  private evidenceOf(
    rule: Detection['rule'],
    hits: RuleHits,
    event: MatchedEventSource | undefined,
  ): readonly EvidenceField[] | undefined {
    if (event === undefined || rule.kind !== 'rule') return undefined;
    if (hits.withEvidence >= EVIDENCE_PER_RULE || this.evidenceChars >= EVIDENCE_BUDGET_CHARS) {
      this.evidenceOmitted++;
      return undefined;
    }
    const source =
      typeof (event as SigmaEvent).get === 'function'
        ? (event as SigmaEvent)
        : sigmaEventFromEvtx(event as EvtxEvent);
    const evidence = matchEvidence(rule as SigmaRule, source);
    hits.withEvidence++;
    for (const f of evidence) this.evidenceChars += f.name.length + f.value.length + 16;
    return evidence;
  }

  /** Rules from the most severe level down, then by count, then title. */
  rules(): RuleHits[] {
    return [...this.byRule.values()].sort(
      (a, b) =>
        levelRank(b.rule.level) - levelRank(a.rule.level) ||
        b.count - a.count ||
        (a.rule.title < b.rule.title ? -1 : a.rule.title > b.rule.title ? 1 : 0),
    );
  }

  /** Matches per level, most severe first (`unknown` for rules without a level). */
  byLevel(): [string, number][] {
    const counts = new Map<string, number>();
    for (const h of this.byRule.values()) {
      const level = levelRank(h.rule.level) < 0 ? 'unknown' : h.rule.level!.toLowerCase();
      counts.set(level, (counts.get(level) ?? 0) + h.count);
    }
    return [...LEVELS]
      .reverse()
      .concat('unknown' as never)
      .flatMap((l) => (counts.has(l) ? [[l, counts.get(l)!] as [string, number]] : []));
  }

  /** The highest level matched (-1 when nothing matched). */
  maxLevel(): number {
    let max = -1;
    for (const h of this.byRule.values()) max = Math.max(max, levelRank(h.rule.level));
    return max;
  }
}

const MATCH_COLUMNS = [
  column('time', 'Time'),
  column('level', 'Level'),
  column('rule_title', 'Rule'),
  column('rule_id', 'Rule ID'),
  column('record_id', 'Record'),
  column('event_id', 'Event ID'),
  column('computer', 'Computer'),
  column('channel', 'Channel'),
  pathColumn('file', 'File'),
  column('mitre', 'MITRE'),
  column('details', 'Details'),
];

const matchRow = (m: Detection): Row => ({
  time: isoTime(m.timestamp),
  level: m.rule.level ?? null,
  rule_title: m.rule.title,
  rule_id: m.rule.id ?? null,
  record_id: m.recordId === 0 ? null : m.recordId,
  event_id: m.eventId ?? null,
  computer: m.computer ?? null,
  channel: m.channel ?? null,
  file: m.file ?? null,
  mitre: mitreCell(m.rule.tags),
  details: m.evidence === undefined ? null : evidenceLine(m.evidence),
});

/** The match listing without its rows: columns, the empty text, the timeline's entries. */
export const MATCH_SET: Omit<RecordSet, 'rows'> = {
  columns: MATCH_COLUMNS,
  empty: 'No Sigma rule matched.',
  timeline: (r) =>
    typeof r.time === 'string'
      ? {
          time: Date.parse(r.time),
          message: `Sigma ${r.level ?? 'match'}: ${r.rule_title}${r.computer ? ` on ${r.computer}` : ''}${r.record_id !== null ? ` (record ${r.record_id})` : ''}`,
          description: 'Event Recorded',
        }
      : undefined,
};

/** One row per kept match, in the order they were found. */
export function matchRecords(d: Detections): RecordSet {
  return { ...MATCH_SET, rows: d.kept.map(matchRow) };
}

/**
 * Matches listed in time order across every input (`tae sigma --jsonl` and the other
 * listings): they arrive file by file and are put in order through sorted runs with bounded
 * memory (time-order.ts), then written in batches once the run is over.
 */
export class MatchStream {
  private readonly order: TimeOrder;
  private readonly records: RecordStream;

  constructor(format: Format, out?: Output, bounds?: ConstructorParameters<typeof TimeOrder>[0]) {
    this.records = new RecordStream(MATCH_SET, format, out);
    this.order = new TimeOrder(bounds);
  }

  readonly add = (d: Detection): void => {
    const row = matchRow(d);
    this.order.add(d.timestamp, row, typeof row.details === 'string' ? row.details.length + 200 : 200);
  };

  /** Runs that went to disk (for the tests). */
  get spilled(): number {
    return this.order.spilled;
  }

  /** Nothing to wait for: runs are written as they fill, synchronously. */
  readonly pending = (): Promise<void> | undefined => undefined;

  async end(): Promise<number> {
    for (const batch of this.order.sorted()) await this.records.write(batch);
    return this.records.end();
  }

  /** Removes the runs of a listing that will not be written (a failed run). */
  close(): void {
    this.order.close();
  }
}
