/**
 * Correlations may reference correlations (chaining): they run inner first. A loop, or a
 * reference to nothing loaded, is reported and the correlations involved do not run.
 * `generate` decides which matches are also reported on their own.
 */
import type { RuleDiagnostic } from '../diagnostics.js';
import type { SigmaCorrelation } from '../model.js';
import type { RuleRef } from './types.js';

const refsOf = (r: { id?: string; name?: string }): string[] =>
  [r.id, r.name].filter((k): k is string => k !== undefined);

function problem(c: SigmaCorrelation, code: RuleDiagnostic['code'], message: string): RuleDiagnostic {
  return {
    source: c.source,
    document: c.document,
    ...(c.id ? { ruleId: c.id } : {}),
    title: c.title,
    code,
    message,
  };
}

export function orderCorrelations(
  correlations: readonly SigmaCorrelation[],
  knownRules: readonly RuleRef[] | undefined,
): { ordered: SigmaCorrelation[]; problems: RuleDiagnostic[] } {
  const byRef = new Map<string, SigmaCorrelation>();
  for (const c of correlations) for (const k of refsOf(c)) byRef.set(k, c);
  const known = knownRules === undefined ? undefined : new Set(knownRules.flatMap(refsOf));
  const problems: RuleDiagnostic[] = [];
  const ordered: SigmaCorrelation[] = [];
  const state = new Map<SigmaCorrelation, 'visiting' | 'done' | 'failed'>();

  const visit = (c: SigmaCorrelation): boolean => {
    const s = state.get(c);
    if (s === 'done') return true;
    if (s === 'failed' || s === 'visiting') return false;
    state.set(c, 'visiting');
    let ok = true;
    for (const r of c.rules) {
      const inner = byRef.get(r);
      if (inner !== undefined) {
        if (state.get(inner) === 'visiting') {
          problems.push(problem(c, 'correlation.cycle', `'${r}' leads back to this correlation`));
          ok = false;
        } else if (!visit(inner)) {
          problems.push(problem(c, 'correlation.reference', `'${r}' is a correlation that cannot run`));
          ok = false;
        }
      } else if (known !== undefined && !known.has(r)) {
        problems.push(problem(c, 'correlation.reference', `no loaded rule has the id or name '${r}'`));
        ok = false;
      }
    }
    state.set(c, ok ? 'done' : 'failed');
    if (ok) ordered.push(c);
    return ok;
  };
  for (const c of correlations) visit(c);
  return { ordered, problems };
}

/**
 * Whether a rule's (or a correlation's) own matches are reported: yes unless it is referenced
 * by correlations and none of them sets `generate: true` (the spec's default is false).
 */
export function reportsStandalone(
  correlations: readonly SigmaCorrelation[],
): (rule: { id?: string; name?: string }) => boolean {
  const referenced = new Map<string, boolean>();
  for (const c of correlations)
    for (const r of c.rules) referenced.set(r, (referenced.get(r) ?? false) || c.generate);
  return (rule) => {
    const flags = refsOf(rule).flatMap((k) => {
      const f = referenced.get(k);
      return f === undefined ? [] : [f];
    });
    return flags.length === 0 || flags.some(Boolean);
  };
}
