/**
 * Binds a condition tree to its search identifiers, once per rule: selectors are resolved to
 * the names they cover and the tree becomes one closure, so nothing is looked up per event.
 */
import { fail } from '../diagnostics.js';
import { ANY, compileGlob, type Part } from '../wildcard.js';
import type { Condition } from './parse.js';

export type Predicate<C> = (ctx: C) => boolean;

/**
 * The identifiers a selector covers. `them` and patterns skip `_`-prefixed names unless the
 * pattern itself starts with `_` (how filters are injected); a pattern without `*` is exact,
 * so `1 of selection` never pulls in `selection_extra`.
 */
export function selectNames(pattern: string | null, names: readonly string[]): string[] {
  if (pattern === null) return names.filter((n) => !n.startsWith('_'));
  if (!pattern.includes('*')) return names.filter((n) => n === pattern);
  const parts: Part[] = pattern.split('*').flatMap((lit, i) => (i === 0 ? [lit] : [ANY, lit]));
  const matches = compileGlob(parts);
  return names.filter((n) => matches(n) && (pattern.startsWith('_') || !n.startsWith('_')));
}

/** Loops rather than `every`/`some`, whose callback closures would be allocated per event. */
function every<C>(args: readonly Predicate<C>[]): Predicate<C> {
  if (args.length === 1) return args[0]!;
  return (ctx) => {
    for (let i = 0; i < args.length; i++) if (!args[i]!(ctx)) return false;
    return true;
  };
}

function some<C>(args: readonly Predicate<C>[]): Predicate<C> {
  if (args.length === 1) return args[0]!;
  return (ctx) => {
    for (let i = 0; i < args.length; i++) if (args[i]!(ctx)) return true;
    return false;
  };
}

function describe(quantifier: 'one' | 'all', pattern: string | null): string {
  return `${quantifier === 'one' ? '1' : 'all'} of ${pattern ?? 'them'}`;
}

export function bindCondition<C>(
  condition: Condition,
  identifiers: ReadonlyMap<string, Predicate<C>>,
): Predicate<C> {
  const names = [...identifiers.keys()];
  const lookup = (name: string): Predicate<C> => {
    const p = identifiers.get(name);
    if (p === undefined)
      fail('condition.unknown_identifier', `the condition uses '${name}', which is not defined`);
    return p;
  };
  const bind = (c: Condition): Predicate<C> => {
    switch (c.kind) {
      case 'identifier':
        return lookup(c.name);
      case 'not': {
        const arg = bind(c.arg);
        return (ctx) => !arg(ctx);
      }
      case 'and':
        return every(c.args.map(bind));
      case 'or':
        return some(c.args.map(bind));
      case 'selector': {
        const selected = selectNames(c.pattern, names);
        if (selected.length === 0)
          fail(
            'condition.empty_selector',
            `'${describe(c.quantifier, c.pattern)}' matches no search identifier`,
          );
        const args = selected.map(lookup);
        if (args.length === 1) return args[0]!;
        return c.quantifier === 'all'
          ? (ctx) => args.every((a) => a(ctx))
          : (ctx) => args.some((a) => a(ctx));
      }
    }
  };
  return bind(condition);
}

/** The identifiers a condition refers to, directly or through selectors (for reports and lint). */
export function referencedNames(condition: Condition, names: readonly string[]): Set<string> {
  const out = new Set<string>();
  const walk = (c: Condition): void => {
    switch (c.kind) {
      case 'identifier':
        out.add(c.name);
        return;
      case 'not':
        walk(c.arg);
        return;
      case 'and':
      case 'or':
        c.args.forEach(walk);
        return;
      case 'selector':
        for (const n of selectNames(c.pattern, names)) out.add(n);
        return;
    }
  };
  walk(condition);
  return out;
}
