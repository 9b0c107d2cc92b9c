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

/** One correlation on the ordering stack: its next reference to look at, and whether all so far can run. */
interface Frame {
  readonly c: SigmaCorrelation;
  next: number;
  ok: boolean;
  /** The reference whose correlation is being ordered above this frame. */
  waiting?: { readonly ref: string; readonly inner: SigmaCorrelation } | undefined;
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

  // Depth first, inner correlations before the ones naming them, on an explicit stack: a
  // chain as long as a rule file can hold (thousands) must not exhaust the call stack.
  const visit = (root: SigmaCorrelation): void => {
    if (state.has(root)) return;
    state.set(root, 'visiting');
    const stack: Frame[] = [{ c: root, next: 0, ok: true }];
    while (stack.length > 0) {
      const f = stack[stack.length - 1]!;
      if (f.waiting !== undefined) {
        if (state.get(f.waiting.inner) !== 'done') {
          problems.push(
            problem(f.c, 'correlation.reference', `'${f.waiting.ref}' is a correlation that cannot run`),
          );
          f.ok = false;
        }
        f.waiting = undefined;
      }
      if (f.next < f.c.rules.length) {
        const r = f.c.rules[f.next++]!;
        const inner = byRef.get(r);
        const s = inner === undefined ? undefined : state.get(inner);
        if (inner !== undefined && s === undefined) {
          f.waiting = { ref: r, inner };
          state.set(inner, 'visiting');
          stack.push({ c: inner, next: 0, ok: true });
        } else if (s === 'visiting') {
          problems.push(problem(f.c, 'correlation.cycle', `'${r}' leads back to this correlation`));
          f.ok = false;
        } else if (s === 'failed') {
          problems.push(problem(f.c, 'correlation.reference', `'${r}' is a correlation that cannot run`));
          f.ok = false;
        } else if (inner === undefined && known !== undefined && !known.has(r)) {
          problems.push(problem(f.c, 'correlation.reference', `no loaded rule has the id or name '${r}'`));
          f.ok = false;
        }
        continue;
      }
      state.set(f.c, f.ok ? 'done' : 'failed');
      if (f.ok) ordered.push(f.c);
      stack.pop();
    }
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
