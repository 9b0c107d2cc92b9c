/**
 * Decoded events through the analyzer and, optionally, Sigma rules: the pipeline of the
 * `winevtx` job and of `tae analyze`, kept in one place so that both report the same.
 * A duplicate event (see dedup.ts) is not matched. A rule or correlation that `generate:
 * false` correlations reference is matched for them but not reported on its own.
 */
import type { EvtxEvent } from '../evtx/index.js';
import {
  type BaseMatch,
  type CorrelationHit,
  correlate,
  type LoadResult,
  type RuleSet,
  reportsStandalone,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../sigma/index.js';
import type { Analyzer } from './analyzer.js';
import { sigmaRuleRef } from './types.js';

export interface SigmaPassRules {
  readonly loaded: LoadResult;
  readonly ruleSet: RuleSet;
}

export interface SigmaPassOptions {
  readonly analyzer: Analyzer;
  /** Without rules only the analyzer sees the events. */
  readonly sigma?: SigmaPassRules;
  /** Base matches kept for correlations (default 1,000,000). */
  readonly maxMatches?: number;
}

export interface EventAdded {
  /** False for a duplicate: the analyzer skipped it and no rule was tried. */
  readonly fresh: boolean;
  /** The rules it matched that report on their own (already given to the analyzer). */
  readonly rules: readonly SigmaRule[];
}

export interface SigmaPass {
  add(e: EvtxEvent, file: string): EventAdded;
  /** Runs the correlations; returns the hits that report on their own (already given to the analyzer). */
  finish(): CorrelationHit[];
}

const NONE: readonly SigmaRule[] = [];

export function createSigmaPass(options: SigmaPassOptions): SigmaPass {
  const { analyzer, sigma } = options;
  const correlations = sigma?.loaded.correlations ?? [];
  const standalone = reportsStandalone(correlations);
  const limit = options.maxMatches ?? 1_000_000;
  const matches: BaseMatch[] = [];
  return {
    add(e, file) {
      if (!analyzer.add(e, { file })) return { fresh: false, rules: NONE };
      if (sigma === undefined) return { fresh: true, rules: NONE };
      const event = sigmaEventFromEvtx(e);
      const rules: SigmaRule[] = [];
      for (const { rule } of sigma.ruleSet.match(event)) {
        if (correlations.length > 0 && matches.length < limit)
          matches.push({ rule, timestamp: e.timestamp, event, recordId: e.recordId });
        if (!standalone(rule)) continue;
        rules.push(rule);
        analyzer.addSigmaMatch({
          rule: sigmaRuleRef(rule),
          recordId: e.recordId,
          timestamp: e.timestamp,
          channel: e.channel,
          computer: e.computer,
        });
      }
      return { fresh: true, rules };
    },
    finish() {
      if (sigma === undefined || correlations.length === 0) return [];
      const { hits } = correlate({ correlations, matches, knownRules: sigma.loaded.rules });
      const reported = hits.filter((h) => standalone(h.correlation));
      for (const h of reported)
        analyzer.addSigmaMatch({
          rule: sigmaRuleRef(h.correlation),
          recordId: 0,
          timestamp: h.firstTimestamp,
        });
      return reported;
    },
  };
}
