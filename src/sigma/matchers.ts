/**
 * Final values to closures over an event context. Everything rule-dependent (lower-casing the
 * pattern, compiling the regex, parsing the network) happens here, once per rule.
 */
import { RE2JS } from 're2js';
import { fail } from './diagnostics.js';
import type { EvalContext, SigmaScalar } from './event.js';
import { inCidr, parseIpOnce } from './ip.js';
import type { CompareOp, SigmaType, TimePart } from './values.js';
import { compileGlob, mapLiterals } from './wildcard.js';

export type Test = (ctx: EvalContext) => boolean;

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const HEX = /^[+-]?0[xX][0-9a-fA-F]+$/;

/** Event text as a number: decimal, or `0x…` hex as Windows writes flags and ids. */
export function eventNumber(text: string): number | undefined {
  const t = text.trim();
  if (DECIMAL.test(t)) return Number(t);
  if (HEX.test(t)) return t.startsWith('-') ? -Number.parseInt(t.slice(1), 16) : Number.parseInt(t, 16);
  return undefined;
}

const decimal = (t: string): number | undefined => (DECIMAL.test(t) ? Number(t) : undefined);

/** True when `test` holds for any of the texts; a loop, since a closure per call would allocate. */
function anyOf(texts: readonly string[] | undefined, test: (s: string) => boolean): boolean {
  if (texts === undefined) return false;
  for (let i = 0; i < texts.length; i++) if (test(texts[i]!)) return true;
  return false;
}

/** Any value of the field (any element of a multi-valued one), or any value of the event for keywords. */
function overTexts(field: string | null, cased: boolean, test: (s: string) => boolean): Test {
  if (field === null)
    return cased ? (ctx) => anyOf(ctx.allTexts(), test) : (ctx) => anyOf(ctx.allLowers(), test);
  return cased ? (ctx) => anyOf(ctx.texts(field), test) : (ctx) => anyOf(ctx.lowers(field), test);
}

/** OR / AND over sub-tests without allocating per evaluation. */
export function anyTest(tests: readonly Test[]): Test {
  if (tests.length === 1) return tests[0]!;
  return (ctx) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(ctx)) return true;
    return false;
  };
}

export function allTests(tests: readonly Test[]): Test {
  if (tests.length === 1) return tests[0]!;
  return (ctx) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(ctx)) return false;
    return true;
  };
}

function compareTest(op: CompareOp, limit: number): (n: number) => boolean {
  switch (op) {
    case 'gt':
      return (n) => n > limit;
    case 'gte':
      return (n) => n >= limit;
    case 'lt':
      return (n) => n < limit;
    case 'lte':
      return (n) => n <= limit;
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/;

/** A date part as written (no time-zone conversion, as the spec says); ISO weeks for `week`. */
export function datePart(text: string, part: TimePart): number | undefined {
  const m = DATE.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  switch (part) {
    case 'year':
      return y;
    case 'month':
      return mo;
    case 'day':
      return d;
    case 'hour':
      return m[4] === undefined ? undefined : Number(m[4]);
    case 'minute':
      return m[5] === undefined ? undefined : Number(m[5]);
    case 'week': {
      const date = new Date(Date.UTC(y, mo - 1, d));
      const weekday = date.getUTCDay() || 7;
      date.setUTCDate(date.getUTCDate() + 4 - weekday);
      const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
      return Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
    }
  }
}

const isEmpty = (v: SigmaScalar): boolean => v === null || v === '';

function compileRegex(pattern: string, flags: { i: boolean; m: boolean; s: boolean }): RE2JS {
  const bits =
    (flags.i ? RE2JS.CASE_INSENSITIVE : 0) | (flags.m ? RE2JS.MULTILINE : 0) | (flags.s ? RE2JS.DOTALL : 0);
  try {
    return RE2JS.compile(pattern, bits);
  } catch (e) {
    fail('value.invalid_regex', `invalid regular expression /${pattern}/: ${(e as Error).message}`);
  }
}

export function compileValue(v: SigmaType, field: string | null): Test {
  switch (v.kind) {
    case 'string': {
      const glob = compileGlob(v.cased ? v.parts : mapLiterals(v.parts, (s) => s.toLowerCase()));
      return overTexts(field, v.cased, glob);
    }
    case 'number': {
      const text = v.text.toLowerCase();
      const num = decimal(v.text);
      return overTexts(field, false, (s) => s === text || (num !== undefined && decimal(s) === num));
    }
    case 'bool': {
      const text = String(v.value);
      return overTexts(field, false, (s) => s === text);
    }
    case 'null': {
      if (field === null) fail('value.invalid_type', 'a keyword cannot be null');
      return (ctx) => {
        const raw = ctx.event.get(field);
        if (raw === undefined) return true;
        return Array.isArray(raw)
          ? (raw as readonly SigmaScalar[]).every(isEmpty)
          : isEmpty(raw as SigmaScalar);
      };
    }
    case 'bytes': {
      const text = String.fromCharCode(...v.bytes);
      return overTexts(field, true, (s) => s === text);
    }
    case 'regex': {
      const re = compileRegex(v.pattern, v.flags);
      return overTexts(field, true, (s) => re.test(s));
    }
    case 'cidr': {
      const net = v.cidr;
      return overTexts(field, true, (s) => {
        const ip = parseIpOnce(s);
        return ip !== undefined && inCidr(net, ip);
      });
    }
    case 'compare': {
      const ok = compareTest(v.op, v.value);
      return overTexts(field, true, (s) => {
        const n = eventNumber(s);
        return n !== undefined && ok(n);
      });
    }
    case 'timepart': {
      const { part, value } = v;
      return overTexts(field, true, (s) => datePart(s, part) === value);
    }
    case 'exists': {
      if (field === null) fail('modifier.invalid_combination', "modifier 'exists' needs a field");
      const want = v.value;
      return (ctx) => ctx.event.has(field) === want;
    }
    case 'fieldref': {
      if (field === null) fail('modifier.invalid_combination', "modifier 'fieldref' needs a field");
      return fieldRefTest(field, v.field, v.mode);
    }
    case 'expansion': {
      return anyTest(v.values.map((x) => compileValue(x, field)));
    }
  }
}

/** Case-insensitive like every other string comparison (Hayabusa's is case-sensitive). */
function fieldRefTest(
  field: string,
  other: string,
  mode: 'equals' | 'contains' | 'startswith' | 'endswith',
): Test {
  const rel = (a: string, b: string): boolean => {
    switch (mode) {
      case 'equals':
        return a === b;
      case 'contains':
        return a.includes(b);
      case 'startswith':
        return a.startsWith(b);
      case 'endswith':
        return a.endsWith(b);
    }
  };
  return (ctx) => {
    const as = ctx.lowers(field);
    const bs = ctx.lowers(other);
    return as !== undefined && bs !== undefined && as.some((a) => bs.some((b) => rel(a, b)));
  };
}
