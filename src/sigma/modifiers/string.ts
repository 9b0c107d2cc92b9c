/** String modifiers: anchoring, case, Windows dashes and placeholders. */
import { fail } from '../diagnostics.js';
import { asString, type SigmaStringType, type SigmaType } from '../values.js';
import { ANY, normalise, type Part, parseSigmaString } from '../wildcard.js';
import { expectKind, type Modifier, type ModifierContext } from './types.js';

function stringOf(v: SigmaType, ctx: ModifierContext): SigmaStringType {
  return asString(v) ?? expectKind(v, ['string'], ctx);
}

const withParts = (v: SigmaStringType, parts: readonly Part[]): SigmaStringType => ({
  kind: 'string',
  parts: normalise(parts),
  cased: v.cased,
});

export const contains: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    // `|re` is a search already, so the implicit `.*…*` pySigma adds changes nothing.
    if (v.kind === 'regex') return v;
    if (v.kind === 'fieldref') return { ...v, mode: 'contains' };
    const s = stringOf(v, ctx);
    return withParts(s, [ANY, ...s.parts, ANY]);
  },
};

export const startswith: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    if (v.kind === 'regex') return v.pattern.startsWith('^') ? v : { ...v, pattern: `^(?:${v.pattern})` };
    if (v.kind === 'fieldref') return { ...v, mode: 'startswith' };
    const s = stringOf(v, ctx);
    return withParts(s, [...s.parts, ANY]);
  },
};

export const endswith: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    if (v.kind === 'regex')
      return v.pattern.endsWith('$') && !v.pattern.endsWith('\\$')
        ? v
        : { ...v, pattern: `(?:${v.pattern})$` };
    if (v.kind === 'fieldref') return { ...v, mode: 'endswith' };
    const s = stringOf(v, ctx);
    return withParts(s, [ANY, ...s.parts]);
  },
};

export const cased: Modifier = {
  kind: 'value',
  apply: (v, ctx) => ({ ...stringOf(v, ctx), cased: true }),
};

const DASHES = ['-', '/', '\u2013', '\u2014', '\u2015'] as const;
/** 5^6 variants; more dashes in one value would be a rule mistake, not a real command line. */
const MAX_VARIANTS = 15_625;
const WORD = /[\p{L}\p{N}_]/u;

/**
 * Positions of `-`/`/` that start a word: pySigma's `\B[-/]\b` within one literal part, so
 * `-param-1` varies only its first dash and `--force` only its second.
 */
function dashPositions(lit: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < lit.length; i++) {
    const c = lit[i]!;
    if (c !== '-' && c !== '/') continue;
    const before = i === 0 ? false : WORD.test(lit[i - 1]!);
    const after = i + 1 < lit.length && WORD.test(lit[i + 1]!);
    if (!before && after) out.push(i);
  }
  return out;
}

/** Every combination of the five dash characters at word-initial dash positions. */
export function windashVariants(parts: readonly Part[]): Part[][] {
  let variants: Part[][] = [[]];
  for (const p of parts) {
    if (typeof p !== 'string') {
      for (const v of variants) v.push(p);
      continue;
    }
    let texts = [''];
    let from = 0;
    for (const pos of dashPositions(p)) {
      const chunk = p.slice(from, pos);
      texts = texts.flatMap((t) => DASHES.map((d) => t + chunk + d));
      from = pos + 1;
      if (texts.length * variants.length > MAX_VARIANTS)
        fail('value.too_many_variants', `windash would create more than ${MAX_VARIANTS} variants`);
    }
    const rest = p.slice(from);
    variants = variants.flatMap((v) => texts.map((t) => [...v, t + rest]));
  }
  return variants.map(normalise);
}

export const windash: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    const s = stringOf(v, ctx);
    const variants = windashVariants(s.parts);
    if (variants.length === 1) return s;
    return {
      kind: 'expansion',
      values: variants.map((parts) => ({ kind: 'string', parts, cased: s.cased })),
    };
  },
};

const PLACEHOLDER = /(\\?)%([^%\\\s*?]+)%/g;

/**
 * `%name%` becomes each configured value (cartesian product over several placeholders);
 * `\%` is a literal `%`. A placeholder without values rejects the rule, as the spec requires.
 */
export const expand: Modifier = {
  kind: 'value',
  apply: (v, ctx) => {
    const s = stringOf(v, ctx);
    let variants: Part[][] = [[]];
    for (const p of s.parts) {
      if (typeof p !== 'string') {
        for (const variant of variants) variant.push(p);
        continue;
      }
      let from = 0;
      for (const m of p.matchAll(PLACEHOLDER)) {
        const before = p.slice(from, m.index);
        from = m.index + m[0].length;
        if (m[1] === '\\') {
          const text = `${before}%${m[2]}%`;
          for (const variant of variants) variant.push(text);
          continue;
        }
        const name = m[2]!;
        const values = Object.hasOwn(ctx.placeholders, name) ? ctx.placeholders[name] : undefined;
        if (values === undefined || values.length === 0)
          fail('placeholder.unresolved', `placeholder %${name}% has no configured values`);
        const expansions = values.map(parseSigmaString);
        variants = variants.flatMap((variant) => expansions.map((e) => [...variant, before, ...e]));
        if (variants.length > MAX_VARIANTS)
          fail('value.too_many_variants', `placeholders expand to more than ${MAX_VARIANTS} values`);
      }
      const rest = p.slice(from).replaceAll('\\%', '%');
      for (const variant of variants) variant.push(rest);
    }
    const out = variants.map(
      (parts): SigmaType => ({ kind: 'string', parts: normalise(parts), cased: s.cased }),
    );
    return out.length === 1 ? out[0]! : { kind: 'expansion', values: out };
  },
};
