/**
 * Modifiers that turn a value into a typed test: CIDR networks, numeric comparisons, date
 * parts, field existence and field references.
 */
import { fail } from '../diagnostics.js';
import { parseCidr } from '../ip.js';
import { asString, type CompareOp, type SigmaType, type TimePart } from '../values.js';
import { hasWildcard, plainText } from '../wildcard.js';
import { expectKind, type Modifier, type ModifierContext } from './types.js';

function plain(v: SigmaType, ctx: ModifierContext, what: string): string {
  const s = asString(v) ?? expectKind(v, ['string'], ctx);
  if (hasWildcard(s.parts))
    fail('value.wildcard', `${what} cannot contain wildcards ('${plainText(s.parts)}')`);
  return plainText(s.parts);
}

export const cidr: Modifier = {
  kind: 'value',
  first: true,
  apply: (v, ctx) => {
    const text = plain(v, ctx, 'a CIDR network');
    const parsed = parseCidr(text);
    if (typeof parsed === 'string') fail('value.invalid_cidr', parsed);
    return { kind: 'cidr', text, cidr: parsed };
  },
};

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number as the rule states it. Unlike pySigma, a quoted decimal (`'5'`) is accepted:
 * refusing it would reject a rule for its author's quoting style, not its meaning.
 */
function numberOf(v: SigmaType, ctx: ModifierContext): number {
  if (v.kind === 'number') return v.value;
  if (
    v.kind === 'string' &&
    v.parts.length === 1 &&
    typeof v.parts[0] === 'string' &&
    DECIMAL.test(v.parts[0])
  )
    return Number(v.parts[0]);
  if (v.kind === 'string')
    fail('value.invalid_type', `modifier '${ctx.name}' needs a number, not '${plainText(v.parts)}'`);
  return expectKind(v, ['number'], ctx).value;
}

function compare(op: CompareOp): Modifier {
  return { kind: 'value', apply: (v, ctx) => ({ kind: 'compare', op, value: numberOf(v, ctx) }) };
}

export const gt = compare('gt');
export const gte = compare('gte');
export const lt = compare('lt');
export const lte = compare('lte');

function timePart(part: TimePart): Modifier {
  return {
    kind: 'value',
    apply: (v, ctx) => {
      const value = numberOf(v, ctx);
      if (!Number.isInteger(value)) fail('value.invalid_type', `modifier '${part}' needs an integer`);
      return { kind: 'timepart', part, value };
    },
  };
}

export const minute = timePart('minute');
export const hour = timePart('hour');
export const day = timePart('day');
export const week = timePart('week');
export const month = timePart('month');
export const year = timePart('year');

const TRUTHY = new Set(['true', 'yes']);
const FALSY = new Set(['false', 'no']);

/** Accepts YAML 1.1's yes/no too, which YAML 1.2 reads as strings. */
export const exists: Modifier = {
  kind: 'value',
  first: true,
  apply: (v, ctx) => {
    if (ctx.field === null)
      fail('modifier.invalid_combination', "modifier 'exists' needs a field; it cannot apply to keywords");
    if (v.kind === 'bool') return { kind: 'exists', value: v.value };
    const text = v.kind === 'string' && !hasWildcard(v.parts) ? plainText(v.parts).toLowerCase() : undefined;
    if (text !== undefined && TRUTHY.has(text)) return { kind: 'exists', value: true };
    if (text !== undefined && FALSY.has(text)) return { kind: 'exists', value: false };
    fail('value.invalid_type', "modifier 'exists' needs true or false");
  },
};

export const fieldref: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    if (ctx.field === null) fail('modifier.invalid_combination', "modifier 'fieldref' needs a field");
    return { kind: 'fieldref', field: plain(v, ctx, 'a field reference'), mode: 'equals' };
  },
};
