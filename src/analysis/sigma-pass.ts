/**
 * Decoded events through the analyzer and, optionally, Sigma rules: the pipeline of the
 * `winevtx` job and of `tae analyze`, kept in one place so that both report the same.
 * A duplicate event (see dedup.ts) is not matched. A rule or correlation that `generate:
 * false` correlations reference is matched for them but not reported on its own.
 */
import { TaeError } from '../errors/index.js';
import type { EvtxEvent } from '../evtx/index.js';
import { type ErrorInsight, errorInsight } from '../insights/index.js';
import {
  type CompiledSigma,
  type CorrelationHit,
  type RuleDiagnostic,
  type SigmaRule,
  SigmaSession,
  sigmaEventFromEvtx,
} from '../sigma/index.js';
import type { Analyzer } from './analyzer.js';
import type { EventDigest } from './digest.js';
import { type EventHead, sigmaRuleRef } from './types.js';

export type SigmaPassRules = CompiledSigma;

export interface SigmaPassOptions {
  readonly analyzer: Analyzer;
  /** Without rules only the analyzer sees the events. */
  readonly sigma?: SigmaPassRules;
  /** Base matches kept for correlations (default 1,000,000, within 64 MiB; past either, `correlation.limit`). */
  readonly maxMatches?: number;
}

export interface EventAdded {
  /** False for a duplicate: the analyzer skipped it and no rule was tried. */
  readonly fresh: boolean;
  /** The rules it matched that report on their own (already given to the analyzer). */
  readonly rules: readonly SigmaRule[];
}

export interface SigmaPassResult {
  /** Correlation hits that report on their own (already given to the analyzer). */
  readonly hits: CorrelationHit[];
  /** Correlation problems (unknown references, the match cap). */
  readonly diagnostics: RuleDiagnostic[];
}

export interface SigmaPass {
  /** `matched`: every rule a decode worker matched for the event; without it, matched here. */
  add(e: EvtxEvent, file: string, matched?: readonly SigmaRule[]): EventAdded;
  /**
   * An event's digest (digest.ts), with every rule a decode worker matched for it; `event`, the
   * event itself, is needed when it matched a rule a correlation references (it reads its fields).
   */
  addDigest(d: EventDigest, file: string, matched: readonly SigmaRule[], event?: EvtxEvent): EventAdded;
  /** Runs the correlations. */
  finish(): SigmaPassResult;
}

const NONE: readonly SigmaRule[] = [];

export function createSigmaPass(options: SigmaPassOptions): SigmaPass {
  const { analyzer, sigma } = options;
  const session =
    sigma === undefined
      ? undefined
      : // The rule set read when an event is matched here (the engine makes it on first read).
        new SigmaSession(
          sigma.loaded,
          { match: (e) => sigma.ruleSet.match(e) },
          {
            ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
          },
        );
  const report = (e: EventHead, rules: readonly SigmaRule[], file: string): EventAdded => {
    for (const rule of rules)
      analyzer.addSigmaMatch({
        rule: sigmaRuleRef(rule),
        recordId: e.recordId,
        timestamp: e.timestamp,
        channel: e.channel,
        computer: e.computer,
        file,
      });
    return { fresh: true, rules };
  };
  const at = (e: EventHead) => ({ timestamp: e.timestamp, recordId: e.recordId });
  return {
    add(e, file, matched) {
      if (!analyzer.add(e, { file })) return { fresh: false, rules: NONE };
      if (session === undefined) return { fresh: true, rules: NONE };
      return report(e, session.evtxRules(e, at(e), matched), file);
    },
    addDigest(d, file, matched, event) {
      if (!analyzer.addDigest(d, { file })) return { fresh: false, rules: NONE };
      if (session === undefined || matched.length === 0) return { fresh: true, rules: NONE };
      // A worker sends on the matched events a correlation reads (`correlatedEventsOnly`).
      const fields = () => {
        if (event === undefined) throw new TaeError('INTERNAL', 'a matched event came without its fields');
        return sigmaEventFromEvtx(event);
      };
      return report(d, session.matched(matched, fields, at(d)), file);
    },
    finish() {
      if (session === undefined) return { hits: [], diagnostics: [] };
      const result = session.finish();
      for (const h of result.hits)
        analyzer.addSigmaMatch({
          rule: sigmaRuleRef(h.correlation),
          recordId: 0,
          timestamp: h.firstTimestamp,
        });
      return result;
    },
  };
}

/** A correlation problem as the jobs show it: an Error insight beside the results. */
export const correlationErrorInsight = (d: RuleDiagnostic): ErrorInsight =>
  errorInsight(`Sigma correlation: ${d.message}`);
