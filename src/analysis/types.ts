/** The analyzer's public input types and the result-type names. */
import type { EvtxEvent } from '../evtx/index.js';
import type { Insight } from '../insights/index.js';
import type { Fact, FactKind } from './facts.js';

/** The result types of an EVTX parse job, in the order their insights are listed. */
export const RESULT_TYPES = [
  'Overview',
  'Process Inference Graph',
  'Key Event Timeline',
  'Process Analysis',
  'Network Analysis',
  'Authentication',
  'Persistence',
] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

/** Where an event came from: the uploaded file's name (shown in the Overview). */
export interface EventSource {
  readonly file: string;
}

/**
 * One Sigma rule match on one event (or one correlation hit). Defined here, not taken from the
 * Sigma module, so the analysis does not depend on how rule sets are loaded.
 */
export interface SigmaMatchInput {
  readonly rule: {
    readonly title: string;
    readonly id?: string | null;
    readonly level?: string | null;
    readonly status?: string | null;
    readonly tags?: readonly string[];
  };
  /** The matched event's record id; 0 or absent when there is no single record (correlations). */
  readonly recordId?: number;
  /** Unix ms of the matched event. */
  readonly timestamp: number;
  readonly channel?: string;
  readonly computer?: string;
  /** The file the event came from, for the timeline's record references. */
  readonly file?: string;
}

/** The event fields the analyzer's counters read (overview, per-log and per-computer figures). */
export type EventHead = Pick<
  EvtxEvent,
  'recordId' | 'timestamp' | 'eventId' | 'provider' | 'channel' | 'computer'
>;

/** One result type's builder: consumes facts, produces that type's insights. */
export interface Builder {
  readonly resultType: ResultType;
  readonly consumes: readonly FactKind[];
  /** `source`: the file the fact's event came from (the timeline names it). */
  consume(fact: Fact, source: EventSource): void;
  /** Sees every analysed event (after de-duplication), for builders that count events. */
  countEvent?(event: EventHead): void;
  /** Sees every Sigma match (correlation hits included). */
  countSigmaMatch?(match: SigmaMatchInput): void;
  /** The type's insights; several builders of one type are listed in registration order. */
  finish(): Insight[];
}

type RuleSource = {
  readonly title: string;
  readonly id?: string;
  readonly level?: string;
  readonly status?: string;
  readonly tags: readonly string[];
};

/** One reference per loaded rule: a job asks once per match, and the event index keys on it. */
const refs = new WeakMap<RuleSource, SigmaMatchInput['rule']>();

/**
 * A loaded Sigma rule (or correlation) reduced to what the analysis reports of it; frozen, as
 * every match of the rule shares it (a rule does not change once loaded).
 */
export function sigmaRuleRef(r: RuleSource): SigmaMatchInput['rule'] {
  let ref = refs.get(r);
  if (ref === undefined) {
    ref = Object.freeze({
      title: r.title,
      ...(r.id ? { id: r.id } : {}),
      ...(r.level ? { level: r.level } : {}),
      ...(r.status ? { status: r.status } : {}),
      tags: Object.freeze([...r.tags]),
    });
    refs.set(r, ref);
  }
  return ref;
}
