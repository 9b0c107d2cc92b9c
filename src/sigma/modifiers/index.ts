/**
 * The modifier registry (spec v2.1 plus pySigma's aliases) and the driver that runs a chain
 * over a detection item's values in the order written.
 */
import { fail } from '../diagnostics.js';
import type { SigmaType } from '../values.js';
import { base64Modifier, base64offset, utf16be, utf16bom, utf16le } from './encoding.js';
import { dotAll, ignoreCase, multiline, re } from './regex.js';
import { cased, contains, endswith, expand, startswith, windash } from './string.js';
import { cidr, day, exists, fieldref, gt, gte, hour, lt, lte, minute, month, week, year } from './typed.js';
import type { Modifier, ModifierContext, PlaceholderValues } from './types.js';

export { base64OffsetVariants } from './encoding.js';
export { windashVariants } from './string.js';
export type { Modifier, ModifierContext, PlaceholderValues } from './types.js';

export const MODIFIERS = {
  contains,
  startswith,
  endswith,
  all: { kind: 'item', flag: 'all' },
  neq: { kind: 'item', flag: 'neq' },
  cased,
  windash,
  expand,
  base64: base64Modifier,
  base64offset,
  wide: utf16le,
  utf16le,
  utf16be,
  utf16: utf16bom,
  re,
  i: ignoreCase,
  ignorecase: ignoreCase,
  m: multiline,
  multiline,
  s: dotAll,
  dotall: dotAll,
  cidr,
  exists,
  fieldref,
  gt,
  gte,
  lt,
  lte,
  minute,
  hour,
  day,
  week,
  month,
  year,
} as const satisfies Readonly<Record<string, Modifier>>;

/** A modifier's name as rules write it (`contains`, `base64offset`, `re`, `i`…). */
export type ModifierName = keyof typeof MODIFIERS;

export const isModifierName = (name: string): name is ModifierName => Object.hasOwn(MODIFIERS, name);

/** Whether `name` is a modifier that maps values (not `all`/`neq`, which shape the item). */
export const isValueModifier = (name: string): boolean =>
  isModifierName(name) && MODIFIERS[name].kind === 'value';

export interface ModifiedValues {
  readonly values: readonly SigmaType[];
  /** `all`: every value must match (alternatives inside one expansion still OR). */
  readonly all: boolean;
  /** `neq`: the whole item is negated, pySigma's `NOT (v1 OR v2)`. */
  readonly negated: boolean;
}

function mapValue(v: SigmaType, m: Extract<Modifier, { kind: 'value' }>, ctx: ModifierContext): SigmaType {
  if (v.kind !== 'expansion') return m.apply(v, ctx);
  const values = v.values.flatMap((x) => {
    const r = mapValue(x, m, ctx);
    return r.kind === 'expansion' ? r.values : [r];
  });
  return { kind: 'expansion', values };
}

export function applyModifiers(
  field: string | null,
  names: readonly string[],
  values: readonly SigmaType[],
  placeholders: PlaceholderValues,
): ModifiedValues {
  let all = false;
  let negated = false;
  const previous: string[] = [];
  let current = values;
  for (const name of names) {
    const m: Modifier | undefined = isModifierName(name) ? MODIFIERS[name] : undefined;
    if (m === undefined) fail('modifier.unknown', `unknown modifier '${name}'`);
    if (m.kind === 'item') {
      if (m.flag === 'all' && all) fail('modifier.invalid_combination', "modifier 'all' given twice");
      if (m.flag === 'all') all = true;
      else negated = true;
      continue;
    }
    if (m.first && previous.length > 0)
      fail(
        'modifier.invalid_combination',
        `modifier '${name}' must come first, not after '${previous.at(-1)}'`,
      );
    const ctx: ModifierContext = { field, name, previous, placeholders };
    current = current.map((v) => mapValue(v, m, ctx));
    previous.push(name);
  }
  return { values: current, all, negated };
}
