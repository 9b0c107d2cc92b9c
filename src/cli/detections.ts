/**
 * Sigma matches as a run collects them: every match counted per rule, the first ones kept
 * (bounded, so a noisy rule over a huge log cannot exhaust memory), and the views commands
 * print: one row per match, counts per level.
 */
import { LEVELS, levelRank, type RuleMeta } from '../sigma/index.js';
import { column, isoTime, type RecordSet, type Row } from './records.js';

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
}

export interface RuleHits {
  readonly rule: Detection['rule'];
  count: number;
  first: number;
  last: number;
  readonly sample: MatchPlace[];
}

export class Detections {
  /** Matches kept in order of arrival (`total` counts them all). */
  readonly kept: Detection[] = [];
  total = 0;
  private readonly byRule = new Map<Detection['rule'], RuleHits>();

  constructor(
    private readonly maxKept = 100_000,
    private readonly maxSample = 200,
  ) {}

  add(rule: Detection['rule'], place: MatchPlace): void {
    this.total++;
    if (this.kept.length < this.maxKept) this.kept.push({ rule, ...place });
    let hits = this.byRule.get(rule);
    if (hits === undefined) {
      hits = { rule, count: 0, first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY, sample: [] };
      this.byRule.set(rule, hits);
    }
    hits.count++;
    if (place.timestamp < hits.first) hits.first = place.timestamp;
    if (place.timestamp > hits.last) hits.last = place.timestamp;
    if (hits.sample.length < this.maxSample) hits.sample.push(place);
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
  column('file', 'File'),
];

/** One row per kept match, in the order they were found. */
export function matchRecords(d: Detections): RecordSet {
  const rows: Row[] = d.kept.map((m) => ({
    time: isoTime(m.timestamp),
    level: m.rule.level ?? null,
    rule_title: m.rule.title,
    rule_id: m.rule.id ?? null,
    record_id: m.recordId === 0 ? null : m.recordId,
    event_id: m.eventId ?? null,
    computer: m.computer ?? null,
    channel: m.channel ?? null,
    file: m.file ?? null,
  }));
  return {
    columns: MATCH_COLUMNS,
    rows,
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
}
