/**
 * `|re` and its flag sub-modifiers. The pattern is compiled later (with the final flags) by
 * the linear-time RE2 engine; here it is only taken as written and its leading inline flags
 * moved into flags, since `(?i)` opens 16 SigmaHQ patterns.
 */
import { asString, type RegexFlags } from '../values.js';
import { plainText } from '../wildcard.js';
import { expectKind, type Modifier } from './types.js';

const LEADING_FLAGS = /^\(\?([ims]+)\)/;

export function splitInlineFlags(pattern: string): { pattern: string; flags: RegexFlags } {
  const flags = { i: false, m: false, s: false };
  let rest = pattern;
  for (let m = LEADING_FLAGS.exec(rest); m; m = LEADING_FLAGS.exec(rest)) {
    for (const f of m[1]!) flags[f as keyof RegexFlags] = true;
    rest = rest.slice(m[0].length);
  }
  return { pattern: rest, flags };
}

export const re: Modifier = {
  kind: 'value',
  first: true,
  apply: (v, ctx) => {
    const s = asString(v) ?? expectKind(v, ['string'], ctx);
    const { pattern, flags } = splitInlineFlags(s.raw ?? plainText(s.parts));
    return { kind: 'regex', pattern, flags };
  },
};

function flag(name: keyof RegexFlags): Modifier {
  return {
    kind: 'value',
    apply: (v, ctx) => {
      const r = expectKind(v, ['regex'], ctx);
      return { ...r, flags: { ...r.flags, [name]: true } };
    },
  };
}

export const ignoreCase = flag('i');
export const multiline = flag('m');
export const dotAll = flag('s');
