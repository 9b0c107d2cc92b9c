/** Supplied records as Sigma events, run through a matcher, with the time each happened. */
import type { BaseMatch } from '../correlate/index.js';
import { eventFromNested, eventFromObject, type SigmaEvent } from '../event.js';
import { sigmaEventFromEvtx } from '../evtx-event.js';
import type { SigmaRule } from '../model.js';
import { compileRuleSet, type RuleSet } from '../ruleset/index.js';
import type { TestRecord } from './input.js';

/** Anything that tells which rules match an event (a compiled rule set, or plain detections). */
export interface SigmaMatcher {
  match(event: SigmaEvent): Iterable<SigmaRule>;
}

/**
 * How supplied data is judged. An event that names its `Channel` is a Windows event: rules are
 * tested through their log-source variants (4688 translation included), and rules whose log
 * source is not a Windows one are left out, except those with a log source we do not know
 * (custom ones), which are judged by detection alone. An event without a `Channel` (flat or
 * nested JSON of any log) cannot be placed, so every rule is judged by its detection alone.
 */
export function dataMatcher(
  rules: readonly SigmaRule[],
  ruleSet: RuleSet = compileRuleSet({ rules }),
): SigmaMatcher {
  const at = (r: { source: string; document?: number }) => `${r.document ?? ''}\u0000${r.source}`;
  const unknownSource = new Set(ruleSet.diagnostics.filter((d) => d.code === 'logsource.unknown').map(at));
  const unknownRules = rules.filter((r) => unknownSource.has(at(r)));
  return {
    match(event) {
      if (!event.has('Channel')) return rules.filter((r) => r.matches(event));
      const out = new Set<SigmaRule>();
      for (const m of ruleSet.match(event)) out.add(m.rule);
      for (const r of unknownRules) if (r.matches(event)) out.add(r);
      return out;
    },
  };
}

export interface MatchedEvent extends BaseMatch {
  readonly rule: SigmaRule;
  /** The record's 1-based position in the supplied data. */
  readonly ordinal: number;
}

/** Where flat and nested JSON usually keep the event time. */
const TIME_FIELDS = [
  'TimeCreated_SystemTime',
  'TimeCreated',
  'SystemTime',
  'UtcTime',
  '@timestamp',
  'timestamp',
  'Event.System.TimeCreated.#attributes.SystemTime',
  'Event.System.TimeCreated_attributes.SystemTime',
];

function timeOf(event: SigmaEvent): number {
  for (const f of TIME_FIELDS) {
    const v = event.get(f);
    if (typeof v === 'string') {
      // Sysmon's UtcTime has no zone designator and a space: it is UTC.
      const t = Date.parse(/^\d{4}-\d\d-\d\d \d/.test(v) && !/[zZ+]/.test(v) ? `${v.replace(' ', 'T')}Z` : v);
      if (Number.isFinite(t)) return t;
    } else if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return Number.NaN;
}

function toSigma(record: TestRecord): { event: SigmaEvent; timestamp: number; recordId?: number } {
  switch (record.kind) {
    case 'eventlog':
      return {
        event: sigmaEventFromEvtx(record.event),
        timestamp: record.event.timestamp,
        recordId: record.event.recordId,
      };
    case 'flat': {
      const event = eventFromObject(record.object);
      return { event, timestamp: timeOf(event) };
    }
    case 'nested': {
      const event = eventFromNested(record.object);
      return { event, timestamp: timeOf(event) };
    }
  }
}

export function matchRecords(records: readonly TestRecord[], matcher: SigmaMatcher): MatchedEvent[] {
  const out: MatchedEvent[] = [];
  records.forEach((record, i) => {
    const { event, timestamp, recordId } = toSigma(record);
    for (const rule of matcher.match(event))
      out.push({ rule, event, timestamp, ordinal: i + 1, ...(recordId === undefined ? {} : { recordId }) });
  });
  return out;
}
