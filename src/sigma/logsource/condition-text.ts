/** A condition tree back to condition text that `parseCondition` reads as the same tree. */
import type { Condition } from '../condition/parse.js';

/** `and` binds tighter than `or`, `not` tighter than both: parenthesise only where needed. */
export function conditionText(c: Condition): string {
  switch (c.kind) {
    case 'identifier':
      return c.name;
    case 'selector':
      return `${c.quantifier === 'one' ? '1' : 'all'} of ${c.pattern ?? 'them'}`;
    case 'not':
      return `not ${c.arg.kind === 'and' || c.arg.kind === 'or' ? `(${conditionText(c.arg)})` : conditionText(c.arg)}`;
    case 'and':
      return c.args.map((a) => (a.kind === 'or' ? `(${conditionText(a)})` : conditionText(a))).join(' and ');
    case 'or':
      return c.args.map(conditionText).join(' or ');
  }
}

export const and = (args: readonly Condition[]): Condition =>
  args.length === 1 ? args[0]! : { kind: 'and', args };

export const or = (args: readonly Condition[]): Condition =>
  args.length === 1 ? args[0]! : { kind: 'or', args };

/** Renames identifiers and rewrites selector patterns (how filters are merged into rules). */
export function mapNames(
  c: Condition,
  name: (n: string) => string,
  pattern: (p: string | null) => string,
): Condition {
  switch (c.kind) {
    case 'identifier':
      return { kind: 'identifier', name: name(c.name) };
    case 'selector':
      return { kind: 'selector', quantifier: c.quantifier, pattern: pattern(c.pattern) };
    case 'not':
      return { kind: 'not', arg: mapNames(c.arg, name, pattern) };
    case 'and':
    case 'or':
      return { kind: c.kind, args: c.args.map((a) => mapNames(a, name, pattern)) };
  }
}
