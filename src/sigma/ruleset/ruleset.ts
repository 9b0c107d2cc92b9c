/**
 * `compileRuleSet`: rules (and meta filters) mapped to their variants, indexed, and evaluated
 * per event, with per-variant accounting and the reasons every other rule was left out.
 */
import { invalidOption } from '../../errors/index.js';
import type { RuleDiagnostic } from '../diagnostics.js';
import { EvalContext, type SigmaEvent } from '../event.js';
import {
  type DroppedVariant,
  filterApplies,
  type MappingOptions,
  mapRule,
  type RuleVariant,
} from '../logsource/index.js';
import type { RuleStats, SigmaFilter, SigmaRule } from '../model.js';
import type { PlaceholderValues } from '../modifiers/index.js';
import { rememberVariants } from '../rule-variants.js';
import { type Anchors, anchorsFromData, detectionAnchors } from './anchors.js';
import { requiredEventIds } from './event-ids.js';
import type { ScannerData } from './literal-scan.js';
import { Plan, ScannerCache } from './plan.js';
import { RuleIndex } from './rule-index.js';
import { timerOverheadMs } from './timing.js';

export interface RuleSetOptions extends Omit<MappingOptions, 'filters'> {
  /**
   * Time one evaluation in this many, per variant, and extrapolate (default 1: every
   * evaluation; 0: none). Measured on the SigmaHQ corpus: timing every evaluation costs about
   * 12 % of the run, one in 16 about 6 %; the anchors keep evaluations few enough for that.
   */
  readonly timingSample?: number;
  /**
   * Anchors an earlier run took for the same variants, by `anchorKey` (a cache's; `null`: none
   * can be read off). Taken as given when of the right shape (`anchorsFromData`; otherwise
   * computed anew): the cache must key them by everything a variant's detection depends on
   * (rule texts, placeholders, filters, engine version).
   */
  readonly knownAnchors?: ReadonlyMap<string, unknown>;
  /**
   * Literal scanners an earlier rule set built (`takenScanners`, kept by a cache): each is
   * checked before use, and one that is not a well-formed automaton is built again.
   */
  readonly knownScanners?: ReadonlyMap<string, unknown>;
}

/** A variant's name for `knownAnchors`: unique in a rule set unless two texts share a source. */
export const anchorKey = (variant: RuleVariant): string =>
  `${variant.rule.source}\u0000${variant.rule.document}\u0000${variant.name}`;

export interface RuleSetInput {
  readonly rules: readonly SigmaRule[];
  readonly filters?: readonly SigmaFilter[];
  readonly options?: RuleSetOptions;
}

export interface RuleMatch {
  readonly rule: SigmaRule;
  /** The log-source variant that matched, for the engine's statistics. @internal */
  readonly variant: RuleVariant;
}

export interface VariantStats extends RuleStats {
  readonly variant: string;
  /** Evaluations that threw (counted as no match). */
  readonly errors: number;
}

/**
 * The rule set's own counters (a rule in two rule sets is counted in each; `rule.stats` counts
 * only direct `rule.matches` calls). `evaluations` counts the times a detection actually ran:
 * the index and the literal anchors skip the others.
 */
export interface RuleSetStats extends RuleStats {
  readonly rule: SigmaRule;
  readonly variants: readonly VariantStats[];
}

export interface RuleSetCoverage {
  readonly rules: number;
  readonly mapped: number;
  readonly variants: number;
  readonly droppedVariants: number;
  /** Diagnostics by code: unmapped rules and unused filters. */
  readonly byCode: Readonly<Record<string, number>>;
}

/**
 * One variant's place in the set. Its test and anchors are taken on first need: a plan is made
 * only for candidate lists events reach, and a deferred variant compiles when first read.
 */
class Entry {
  readonly match: RuleMatch;
  private compiledTest: RuleVariant['test'] | undefined;
  private anchorsTaken = false;
  private anchorsOf: Anchors | undefined;
  evaluations = 0;
  matches = 0;
  errors = 0;
  timed = 0;
  timedMs = 0;
  countdown = 1;

  /**
   * @param key its `anchorKey`, or null when another variant of the set has the same (it is
   * then neither given anchors nor reported)
   */
  constructor(
    readonly ordinal: number,
    readonly variant: RuleVariant,
    readonly key: string | null,
    private readonly placeholders: PlaceholderValues,
    known: Anchors | null | undefined,
  ) {
    this.match = { rule: variant.rule, variant };
    if (known !== undefined) {
      this.anchorsTaken = true;
      this.anchorsOf = known ?? undefined;
    }
  }

  /** Whether the anchors were taken (given or computed), and what they are. */
  get takenAnchors(): Anchors | null | undefined {
    return this.anchorsTaken ? (this.anchorsOf ?? null) : undefined;
  }

  get test(): RuleVariant['test'] {
    this.compiledTest ??= this.variant.test;
    return this.compiledTest;
  }

  get anchors(): Anchors | undefined {
    if (!this.anchorsTaken) {
      this.anchorsOf = detectionAnchors(this.variant.detection, this.placeholders);
      this.anchorsTaken = true;
    }
    return this.anchorsOf;
  }
}

const NO_MATCHES: readonly RuleMatch[] = Object.freeze([]);

/** Made by `compileRuleSet`; exported as a type only. */
export class RuleSet {
  /** The rules as mapped to Windows log sources, for the rule cache and profiles. @internal */
  readonly variants: readonly RuleVariant[];
  /** Variants no log source mapping could make. @internal */
  readonly dropped: readonly DroppedVariant[];
  readonly diagnostics: readonly RuleDiagnostic[];
  private readonly entries: readonly Entry[];
  private readonly index: RuleIndex<Entry, Plan<Entry>>;
  /** Candidate lists with the same members share one plan; plans, their scanners. */
  private readonly plans = new Map<string, Plan<Entry>>();
  private readonly scanners: ScannerCache;
  private readonly sample: number;
  private readonly overheadMs: number;

  constructor(
    readonly rules: readonly SigmaRule[],
    parts: { variants: RuleVariant[]; dropped: DroppedVariant[]; diagnostics: RuleDiagnostic[] },
    sample: number,
    options: RuleSetOptions,
  ) {
    this.scanners = new ScannerCache(options.knownScanners);
    this.variants = parts.variants;
    rememberVariants(parts.variants);
    this.dropped = parts.dropped;
    this.diagnostics = parts.diagnostics;
    this.sample = sample;
    this.overheadMs = sample === 0 ? 0 : timerOverheadMs();
    // Two texts with one source name give two variants one key: neither is given or reported.
    const keys = parts.variants.map(anchorKey);
    const seen = new Set<string>();
    const shared = new Set<string>();
    for (const k of keys) (seen.has(k) ? shared : seen).add(k);
    const known = options.knownAnchors;
    this.entries = parts.variants.map((variant, ordinal) => {
      const key = shared.has(keys[ordinal]!) ? null : keys[ordinal]!;
      return new Entry(
        ordinal,
        variant,
        key,
        options.placeholders ?? {},
        key === null ? undefined : anchorsFromData(known?.get(key)),
      );
    });
    this.index = new RuleIndex((list) => this.planFor(list));
    for (const e of this.entries)
      this.index.add(e, e.variant.selector, requiredEventIds(e.variant.detection));
  }

  private planFor(list: readonly Entry[]): Plan<Entry> {
    const key = list.map((e) => e.ordinal).join(',');
    let plan = this.plans.get(key);
    if (plan === undefined) {
      plan = new Plan(list, this.scanners.source);
      this.plans.set(key, plan);
    }
    return plan;
  }

  /** The variants the index selects for this event (before literal anchors and `test`). @internal */
  candidates(event: SigmaEvent): readonly RuleVariant[] {
    return this.index.candidates(event).entries.map((e) => e.variant);
  }

  /** Every variant that matches, in rule order; an empty shared array when none does. */
  match(event: SigmaEvent): readonly RuleMatch[] {
    const plan = this.index.candidates(event);
    const list = plan.entries;
    if (list.length === 0) return NO_MATCHES;
    // A context of its own: `contextOf`'s WeakMap entry costs more than the context (measured).
    const ctx = new EvalContext(event);
    const count = plan.prepare(ctx);
    const queue = plan.queue;
    const sample = this.sample;
    let out: RuleMatch[] | undefined;
    for (let k = 0; k < count; k++) {
      const e = list[queue[k]!]!;
      e.evaluations++;
      let hit = false;
      try {
        // Read before timing: a deferred variant compiles here, once.
        const test = e.test;
        if (sample !== 0 && --e.countdown <= 0) {
          e.countdown = sample;
          const t0 = performance.now();
          hit = test(ctx);
          e.timedMs += performance.now() - t0;
          e.timed++;
        } else hit = test(ctx);
      } catch {
        // A matcher bug must not take the run down; it shows in the variant's error count.
        e.errors++;
      }
      if (hit) {
        e.matches++;
        out ??= [];
        out.push(e.match);
      }
    }
    return out ?? NO_MATCHES;
  }

  /** Per rule (its variants summed), in rule order; nanoseconds extrapolated from the timed sample. */
  stats(): RuleSetStats[] {
    const byRule = new Map<SigmaRule, VariantStats[]>();
    for (const e of this.entries) {
      const perEval = e.timed === 0 ? 0 : Math.max(0, e.timedMs / e.timed - this.overheadMs);
      const s: VariantStats = {
        variant: e.variant.name,
        evaluations: e.evaluations,
        matches: e.matches,
        nanoseconds: Math.round(perEval * 1e6 * e.evaluations),
        errors: e.errors,
      };
      const list = byRule.get(e.variant.rule);
      if (list === undefined) byRule.set(e.variant.rule, [s]);
      else list.push(s);
    }
    return [...byRule].map(([rule, variants]) => ({
      rule,
      variants,
      evaluations: variants.reduce((n, v) => n + v.evaluations, 0),
      matches: variants.reduce((n, v) => n + v.matches, 0),
      nanoseconds: variants.reduce((n, v) => n + v.nanoseconds, 0),
    }));
  }

  /**
   * The anchors taken so far, by `anchorKey`, for a cache to give a later run (`knownAnchors`).
   * @internal
   */
  takenAnchors(): Map<string, Anchors | null> {
    const out = new Map<string, Anchors | null>();
    for (const e of this.entries) {
      const a = e.takenAnchors;
      if (a !== undefined && e.key !== null) out.set(e.key, a);
    }
    return out;
  }

  /**
   * The literal scanners its plans use, by key, for a cache to give a later run (`knownScanners`).
   * @internal
   */
  takenScanners(): Map<string, ScannerData> {
    return this.scanners.taken();
  }

  resetStats(): void {
    for (const e of this.entries) {
      e.evaluations = e.matches = e.errors = e.timed = e.timedMs = 0;
      e.countdown = 1;
    }
  }

  coverage(): RuleSetCoverage {
    const byCode: Record<string, number> = {};
    for (const d of this.diagnostics) byCode[d.code] = (byCode[d.code] ?? 0) + 1;
    const mapped = new Set(this.variants.map((v) => v.rule)).size;
    return {
      rules: this.rules.length,
      mapped,
      variants: this.variants.length,
      droppedVariants: this.dropped.length,
      byCode,
    };
  }
}

function filterDiagnostic(filter: SigmaFilter): RuleDiagnostic {
  return {
    source: filter.source,
    document: filter.document,
    ...(filter.id === undefined ? {} : { ruleId: filter.id }),
    title: filter.title,
    code: 'filter.unused',
    message: 'the filter names no loaded rule whose logsource it covers',
  };
}

export function compileRuleSet(input: RuleSetInput): RuleSet {
  const options = input.options ?? {};
  const filters = input.filters ?? [];
  const parts = {
    variants: [] as RuleVariant[],
    dropped: [] as DroppedVariant[],
    diagnostics: [] as RuleDiagnostic[],
  };
  for (const rule of input.rules) {
    const mapped = mapRule(rule, { ...options, filters });
    parts.dropped.push(...mapped.dropped);
    if (mapped.ok) parts.variants.push(...mapped.variants);
    else parts.diagnostics.push(mapped.diagnostic);
  }
  for (const f of filters)
    if (!input.rules.some((r) => filterApplies(f, r))) parts.diagnostics.push(filterDiagnostic(f));
  const sample = options.timingSample ?? 1;
  if (!Number.isInteger(sample) || sample < 0 || sample > 1_000_000)
    throw invalidOption('timingSample', 'an integer from 0 to 1000000', sample);
  return new RuleSet(input.rules, parts, sample, options);
}
