/**
 * `sigmaHits`: the Sigma rules that match each event of an EVTX file, one typed hit per (event,
 * rule) with the rule's id, title and level, both record ids and the evidence, for tool builders
 * who want per-event results rather than an endpoint's table (issue 48). Correlations are not
 * per-event: `buildIndex`, the Engine and `runSigma` run them.
 */
import { checkOptionKeys } from '../errors/index.js';
import type { EvtxEvent } from '../evtx/index.js';
import { type EvtxSource, parseEvtx } from '../parse/index.js';
import {
  type EvidenceField,
  matchEvidence,
  type SigmaLevel,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../sigma/index.js';
import { checkSigmaRules, type IndexSigmaRules, sigmaRulesOf } from './sigma-rules.js';

export interface SigmaHit {
  /** The rule's `id` (a UUID in SigmaHQ rules), or null for a rule without one. */
  readonly ruleId: string | null;
  readonly title: string;
  readonly level: SigmaLevel | null;
  /** The Windows `EventRecordID` of the event (`event.recordId`), as Event Viewer shows it. */
  readonly recordId: number;
  /** The record header's sequence number (`ParsedRecord.recordNumber`). */
  readonly recordNumber: number;
  /** The flat event that matched. */
  readonly event: EvtxEvent;
  /** The fields the rule tested (matched ones marked), then the usual ones: at most 12 of 240 characters. */
  readonly evidence: readonly EvidenceField[];
}

export interface SigmaHitsOptions {
  /** `'community'` (the builtin pack), rules from `loadRules`, or a rule set from `compileRuleSet`. */
  readonly sigma: IndexSigmaRules;
  /** Decode on N worker threads (default 0: the calling thread); matching runs on the calling thread. */
  readonly threads?: number;
  /** Cancels the run: iterating then rejects with `TaeError` `CANCELLED`. */
  readonly signal?: AbortSignal;
}

const KNOWN_OPTIONS: Record<keyof SigmaHitsOptions, true> = { sigma: true, threads: true, signal: true };

/**
 * The Sigma hits of every event of `source` (a path or the bytes of an EVTX file), in file
 * order. Options are checked at the call; a file that is not EVTX rejects on iteration, as
 * `parseEvtx` does.
 *
 * @example
 * for await (const hit of sigmaHits('Security.evtx', { sigma: 'community' }))
 *   console.log(hit.level, hit.title, hit.recordId, hit.evidence.map((f) => `${f.name}: ${f.value}`));
 */
export function sigmaHits(source: EvtxSource, options: SigmaHitsOptions): AsyncIterable<SigmaHit> {
  checkOptionKeys(options, KNOWN_OPTIONS);
  checkSigmaRules(options.sigma);
  const parse = parseEvtx(source, {
    outputs: ['event'],
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return hitsOf(parse, options.sigma);
}

async function* hitsOf(
  records: ReturnType<typeof parseEvtx>,
  sigma: IndexSigmaRules,
): AsyncGenerator<SigmaHit> {
  const rules = await sigmaRulesOf(sigma);
  for await (const record of records) {
    const event = record.event;
    if (event === undefined || rules === undefined) continue;
    const sigmaEvent = sigmaEventFromEvtx(event);
    // A rule mapped to several log sources could match one event through two of them.
    const seen = new Set<SigmaRule>();
    for (const { rule } of rules.ruleSet.match(sigmaEvent)) {
      if (seen.has(rule)) continue;
      seen.add(rule);
      yield {
        ruleId: rule.id ?? null,
        title: rule.title,
        level: rule.level ?? null,
        recordId: event.recordId,
        recordNumber: record.recordNumber,
        event,
        evidence: matchEvidence(rule, sigmaEvent),
      };
    }
  }
}
