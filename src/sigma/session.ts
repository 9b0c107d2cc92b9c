/**
 * One Sigma run over a stream of events, the same for every entry point (parse job, Sigma file
 * job, data endpoint, `tae analyze`, `tae sigma`): rules matched per event (here, or in a
 * worker that sends back which rules matched), base matches kept for correlations, correlations
 * run at the end, and every problem reported as a diagnostic, the match cap included.
 *
 * A base match keeps only the fields its correlations read (group-by fields through aliases,
 * the value field), not the event; the matches and the hits kept are bounded by count and size
 * (correlate/limits.ts), and a bound reached is a diagnostic.
 */

import type { EvtxEvent } from '../evtx/index.js';
import {
  type CorrelationHit,
  correlate,
  DEFAULT_MAX_MATCHES,
  KeptMatches,
  matchBytes,
  reportsStandalone,
} from './correlate/index.js';
import type { RuleDiagnostic } from './diagnostics.js';
import { eventFromObject, type SigmaEvent } from './event.js';
import { sigmaEventFromEvtx } from './evtx-event.js';
import type { LoadResult } from './load.js';
import type { SigmaCorrelation, SigmaRule } from './model.js';
import type { PortableSigma } from './portable.js';
import type { RuleSet } from './ruleset/index.js';

/** Loaded rules and the rule set compiled from them: what a run needs, made once. */
export interface CompiledSigma {
  readonly loaded: LoadResult;
  readonly ruleSet: RuleSet;
  /**
   * The same rules for worker threads (see portable.ts); without it, rules run on this thread.
   * @internal
   */
  readonly portable?: PortableSigma;
}

/** Which rules match an event (a rule set, or the data endpoint's matcher). */
export interface RuleMatcher {
  match(event: SigmaEvent): Iterable<SigmaRule | { readonly rule: SigmaRule }>;
}

export interface SigmaSessionOptions {
  /** Base matches kept for correlations; beyond it they are counted and reported (default 1,000,000). */
  readonly maxMatches?: number;
  /** Their estimated heap at most, bytes; beyond it they are counted and reported (default 64 MiB). */
  readonly maxMatchBytes?: number;
  /** Correlation hits kept at most; beyond it they are counted and reported (default 100,000). */
  readonly maxHits?: number;
}

/** When and which record an event is. */
export interface MatchPlace {
  readonly timestamp: number;
  readonly recordId?: number;
}

export interface SessionResult {
  /** Correlation hits that report on their own (`generate` and chaining respected), by first time. */
  readonly hits: CorrelationHit[];
  /** Correlation problems: unknown references, cycles, the caps on matches and hits. */
  readonly diagnostics: RuleDiagnostic[];
}

const NONE: readonly SigmaRule[] = [];

export { DEFAULT_MAX_MATCHES };

export class SigmaSession {
  readonly correlations: readonly SigmaCorrelation[];
  private readonly standalone: (rule: { id?: string; name?: string }) => boolean;
  /** Rule id or name → the event fields its correlations read. */
  private readonly fieldsByRef = new Map<string, Set<string>>();
  private readonly kept: KeptMatches;

  private readonly maxHits: number | undefined;

  constructor(
    private readonly loaded: LoadResult,
    private readonly matcher: RuleMatcher,
    options: SigmaSessionOptions = {},
  ) {
    this.maxHits = options.maxHits;
    this.correlations = loaded.correlations;
    this.standalone = reportsStandalone(this.correlations);
    this.kept = new KeptMatches(options.maxMatches, options.maxMatchBytes);
    for (const c of this.correlations) {
      const value = c.condition !== undefined && 'tests' in c.condition ? c.condition.field : undefined;
      for (const ref of c.rules) {
        const fields = this.fieldsByRef.get(ref) ?? new Set<string>();
        for (const name of [...c.groupBy, ...(value === undefined ? [] : [value])])
          fields.add(c.aliases.get(name)?.get(ref) ?? name);
        this.fieldsByRef.set(ref, fields);
      }
    }
  }

  /** Tests `event`; returns the matched rules that report on their own. */
  match(event: SigmaEvent, at: MatchPlace): readonly SigmaRule[] {
    const out: SigmaRule[] = [];
    for (const m of this.matcher.match(event)) {
      const rule = 'rule' in m ? m.rule : m;
      if (this.take(rule, () => event, at)) out.push(rule);
    }
    return out.length === 0 ? NONE : out;
  }

  /**
   * Rules matched elsewhere (a decode worker): kept for correlations as `match` keeps them;
   * returns those that report on their own. `event` is asked for only when a correlation needs it.
   */
  matched(rules: readonly SigmaRule[], event: () => SigmaEvent, at: MatchPlace): readonly SigmaRule[] {
    if (rules.length === 0) return NONE;
    let source: SigmaEvent | undefined;
    const once = () => (source ??= event());
    const out = rules.filter((rule) => this.take(rule, once, at));
    return out.length === 0 ? NONE : out;
  }

  /**
   * The rules a decoded event reports: those a decode worker already matched (`matched`, every
   * rule it matched), else matched here.
   */
  evtxRules(e: EvtxEvent, at: MatchPlace, matched?: readonly SigmaRule[]): readonly SigmaRule[] {
    return matched === undefined
      ? this.match(sigmaEventFromEvtx(e), at)
      : this.matched(matched, () => sigmaEventFromEvtx(e), at);
  }

  /** Runs the correlations over the kept matches. */
  finish(): SessionResult {
    if (this.correlations.length === 0) return { hits: [], diagnostics: [] };
    const { hits, diagnostics } = correlate({
      correlations: this.correlations,
      matches: this.kept.list,
      knownRules: this.loaded.rules,
      ...(this.maxHits === undefined ? {} : { maxHits: this.maxHits }),
    });
    diagnostics.push(...this.kept.diagnostics());
    return { hits: hits.filter((h) => this.standalone(h.correlation)), diagnostics };
  }

  /** Keeps a correlated rule's match (its fields only); whether the rule reports on its own. */
  private take(rule: SigmaRule, event: () => SigmaEvent, at: MatchPlace): boolean {
    const fields = this.fieldsOf(rule);
    if (fields !== undefined && Number.isFinite(at.timestamp)) {
      if (this.kept.closed) this.kept.drop();
      else {
        const source = event();
        const picked: Record<string, unknown> = {};
        for (const f of fields) {
          const v = source.get(f);
          if (v !== undefined) picked[f] = v;
        }
        const match = {
          rule,
          timestamp: at.timestamp,
          event: eventFromObject(picked),
          ...(at.recordId === undefined ? {} : { recordId: at.recordId }),
        };
        this.kept.add(match, matchBytes(picked));
      }
    }
    return this.standalone(rule);
  }

  private fieldsOf(rule: SigmaRule): readonly string[] | undefined {
    if (this.fieldsByRef.size === 0 || !referencedBy(this.fieldsByRef, rule)) return undefined;
    const byId = rule.id === undefined ? undefined : this.fieldsByRef.get(rule.id);
    const byName = rule.name === undefined ? undefined : this.fieldsByRef.get(rule.name);
    return [...(byId ?? []), ...(byName ?? [])];
  }
}

/**
 * Whether a correlation names `rule` among its `rules` (`refs`: every name they give), by id or
 * by name: the one test of which rules' matches a correlation reads, so that a worker sends back
 * exactly the matched events the session keeps.
 */
export function referencedBy(
  refs: { has(ref: string): boolean },
  rule: Pick<SigmaRule, 'id' | 'name'>,
): boolean {
  return (rule.id !== undefined && refs.has(rule.id)) || (rule.name !== undefined && refs.has(rule.name));
}
