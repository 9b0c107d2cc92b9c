/** The shape every modifier has, and the type checks they share. */
import { fail } from '../diagnostics.js';
import { describeType, type SigmaType, type SigmaTypeKind } from '../values.js';

/** Placeholder name → values (Sigma strings, wildcards honoured) for `|expand`. */
export type PlaceholderValues = Readonly<Record<string, readonly string[]>>;

export interface ModifierContext {
  /** The detection item's field; `null` for a keyword item. */
  readonly field: string | null;
  readonly name: string;
  /** Value modifiers already applied, in order, so type errors can say which pair clashes. */
  readonly previous: readonly string[];
  readonly placeholders: PlaceholderValues;
}

export type Modifier =
  /** Maps each value (alternatives of an expansion one by one) to a new value. */
  | {
      readonly kind: 'value';
      /** re, cidr, exists: their output is a final type no later modifier takes, and no earlier one fits. */
      readonly first?: boolean;
      readonly apply: (value: SigmaType, ctx: ModifierContext) => SigmaType;
    }
  /** Changes how the item's values combine (`all`) or negates the item (`neq`). */
  | { readonly kind: 'item'; readonly flag: 'all' | 'neq' };

/** Narrows a value to one of the accepted kinds or rejects the rule with the matching code. */
export function expectKind<K extends SigmaTypeKind>(
  value: SigmaType,
  kinds: readonly K[],
  ctx: ModifierContext,
): Extract<SigmaType, { kind: K }> {
  if ((kinds as readonly SigmaTypeKind[]).includes(value.kind))
    return value as Extract<SigmaType, { kind: K }>;
  const prev = ctx.previous[ctx.previous.length - 1];
  if (prev !== undefined)
    fail(
      'modifier.invalid_combination',
      `modifier '${ctx.name}' cannot follow '${prev}' (${describeType(value)})`,
    );
  fail('value.invalid_type', `modifier '${ctx.name}' does not apply to ${describeType(value)}`);
}
