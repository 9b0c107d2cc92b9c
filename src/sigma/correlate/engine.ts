/**
 * Correlation over base-rule matches (§1.10): matches are grouped per correlation by their
 * group-by values (aliases resolved per rule), ordered by time and windowed. Correlations
 * that reference correlations run after them, fed with their hits.
 */
import type { RuleDiagnostic } from '../diagnostics.js';
import { eventFromObject, type SigmaEvent } from '../event.js';
import type { SigmaCorrelation } from '../model.js';
import { DEFAULT_MAX_HITS, DEFAULT_MAX_MATCHES, hitLimitDiagnostic, limitDiagnostic } from './limits.js';
import { orderCorrelations } from './order.js';
import { planOf } from './plan.js';
import {
  type BaseMatch,
  type CorrelationHit,
  MAX_RECORD_IDS,
  type RuleRef,
  type WindowEntry,
} from './types.js';

export interface CorrelateOptions {
  readonly correlations: readonly SigmaCorrelation[];
  /** Base-rule matches, in any order. */
  readonly matches: Iterable<BaseMatch>;
  /** Rules that exist, so that a reference to none of them is reported (optional). */
  readonly knownRules?: readonly RuleRef[];
  /** Base matches kept for correlation; beyond it they are counted and reported (default 1,000,000). */
  readonly maxMatches?: number;
  /** Hits kept, over all correlations; beyond it they are counted and reported (limits.ts). */
  readonly maxHits?: number;
}

export interface CorrelateResult {
  /** Every hit, ordered by first timestamp. */
  readonly hits: CorrelationHit[];
  readonly diagnostics: RuleDiagnostic[];
}

function textOf(event: SigmaEvent, field: string | undefined): string | null {
  if (field === undefined) return null;
  const v = event.get(field);
  if (v === undefined || v === null) return null;
  if (Array.isArray(v)) return (v as readonly unknown[]).map(String).join(',');
  return String(v);
}

/** The event field a group-by name reads for a match of `rule`: the alias's mapping, or itself. */
function fieldFor(c: SigmaCorrelation, name: string, rule: string): string | undefined {
  const alias = c.aliases.get(name);
  return alias === undefined ? name : alias.get(rule);
}

/** Hits that may still be kept (`left`), and those that came past it. */
interface HitBudget {
  left: number;
  dropped: number;
}

function evaluate(
  c: SigmaCorrelation,
  byRef: ReadonlyMap<string, readonly BaseMatch[]>,
  budget: HitBudget,
): CorrelationHit[] {
  const groups = new Map<string, { values: (string | null)[]; entries: WindowEntry[] }>();
  const valueField = c.condition !== undefined && 'tests' in c.condition ? c.condition.field : undefined;
  for (const rule of c.rules) {
    for (const m of byRef.get(rule) ?? []) {
      const values = c.groupBy.map((g) => textOf(m.event, fieldFor(c, g, rule)));
      const key = JSON.stringify(values);
      let group = groups.get(key);
      if (group === undefined) {
        group = { values, entries: [] };
        groups.set(key, group);
      }
      const value = valueField === undefined ? null : textOf(m.event, fieldFor(c, valueField, rule));
      group.entries.push({ ts: m.timestamp, rule, value, recordId: m.recordId });
    }
  }
  const plan = planOf(c);
  const hits: CorrelationHit[] = [];
  for (const { values, entries } of groups.values()) {
    entries.sort((a, b) => a.ts - b.ts);
    for (const f of plan.windows(entries, c.timespanMs, plan.accumulator, plan.holds)) {
      if (budget.left === 0) {
        budget.dropped++;
        continue;
      }
      budget.left--;
      const window = entries.slice(f.start, f.end + 1);
      hits.push({
        correlation: c,
        group: Object.fromEntries(c.groupBy.map((g, i) => [g, values[i] ?? null])),
        firstTimestamp: window[0]!.ts,
        lastTimestamp: window[window.length - 1]!.ts,
        value: f.value,
        matchCount: window.length,
        rules: [...new Set(window.map((e) => e.rule))],
        recordIds: window.flatMap((e) => e.recordId ?? []).slice(0, MAX_RECORD_IDS),
      });
    }
  }
  return hits;
}

function addRef(byRef: Map<string, BaseMatch[]>, ref: RuleRef, m: BaseMatch): void {
  for (const key of new Set([ref.id, ref.name])) {
    if (key === undefined) continue;
    let list = byRef.get(key);
    if (list === undefined) {
      list = [];
      byRef.set(key, list);
    }
    list.push(m);
  }
}

export function correlate(options: CorrelateOptions): CorrelateResult {
  const diagnostics: RuleDiagnostic[] = [];
  const { ordered, problems } = orderCorrelations(options.correlations, options.knownRules);
  diagnostics.push(...problems);
  const limit = options.maxMatches ?? DEFAULT_MAX_MATCHES;
  const byRef = new Map<string, BaseMatch[]>();
  let kept = 0;
  let dropped = 0;
  for (const m of options.matches) {
    if (!Number.isFinite(m.timestamp)) continue;
    if (kept >= limit) dropped++;
    else {
      kept++;
      addRef(byRef, m.rule, m);
    }
  }
  if (dropped > 0) diagnostics.push(limitDiagnostic(dropped, limit));
  const hits: CorrelationHit[] = [];
  const maxHits = options.maxHits ?? DEFAULT_MAX_HITS;
  const budget: HitBudget = { left: maxHits, dropped: 0 };
  for (const c of ordered) {
    const own = evaluate(c, byRef, budget);
    for (const h of own) hits.push(h); // spread: RangeError past ~120,000 hits
    const ref: RuleRef = {
      title: c.title,
      ...(c.id ? { id: c.id } : {}),
      ...(c.name ? { name: c.name } : {}),
    };
    for (const h of own)
      addRef(byRef, ref, { rule: ref, timestamp: h.lastTimestamp, event: eventFromObject(h.group) });
  }
  if (budget.dropped > 0) diagnostics.push(hitLimitDiagnostic(budget.dropped, maxHits));
  hits.sort((a, b) => a.firstTimestamp - b.firstTimestamp);
  return { hits, diagnostics };
}
