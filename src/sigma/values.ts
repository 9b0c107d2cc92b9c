/**
 * What a detection value becomes as the modifier chain runs over it (pySigma's `SigmaType`
 * family as one discriminated union). Modifiers are functions from one of these to another.
 */
import type { Cidr } from './ip.js';
import { type Part, parseSigmaString } from './wildcard.js';
import { isYamlScalar, YamlNumber, type YamlValue } from './yaml.js';

export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte';
export type TimePart = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
export type FieldRefMode = 'equals' | 'contains' | 'startswith' | 'endswith';

export interface RegexFlags {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
}

export type SigmaType =
  /**
   * A wildcard pattern; `cased` when it must match case-sensitively (cased, base64…); `raw`
   * is the text as written, kept for `|re`, which must see it before the escape scan.
   */
  | {
      readonly kind: 'string';
      readonly parts: readonly Part[];
      readonly cased: boolean;
      readonly raw?: string;
    }
  | { readonly kind: 'number'; readonly text: string; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'null' }
  /** Encoded text (wide, utf16…) waiting for base64; as a final value it matches byte-per-char. */
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'regex'; readonly pattern: string; readonly flags: RegexFlags }
  | { readonly kind: 'cidr'; readonly text: string; readonly cidr: Cidr }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly value: number }
  | { readonly kind: 'fieldref'; readonly field: string; readonly mode: FieldRefMode }
  | { readonly kind: 'exists'; readonly value: boolean }
  | { readonly kind: 'timepart'; readonly part: TimePart; readonly value: number }
  /** Alternatives from one value (windash, base64offset, expand): OR'ed even under `all`. */
  | { readonly kind: 'expansion'; readonly values: readonly SigmaType[] };

export type SigmaTypeKind = SigmaType['kind'];
export type SigmaStringType = Extract<SigmaType, { kind: 'string' }>;

export const sigmaString = (parts: readonly Part[], cased = false): SigmaType => ({
  kind: 'string',
  parts,
  cased,
});

/** The value as written in the rule, before any modifier; `null` for a YAML map or list. */
export function fromYaml(v: YamlValue): SigmaType | null {
  if (!isYamlScalar(v)) return null;
  if (v === null) return { kind: 'null' };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (v instanceof YamlNumber) return { kind: 'number', text: v.text, value: v.value };
  return { kind: 'string', parts: parseSigmaString(v), cased: false, raw: v };
}

/** Numbers and booleans read as their text where a string modifier wants one (`00000429`). */
export function asString(v: SigmaType): SigmaStringType | undefined {
  switch (v.kind) {
    case 'string':
      return v;
    case 'number':
      return { kind: 'string', parts: [v.text], cased: false, raw: v.text };
    case 'bool':
      return { kind: 'string', parts: [String(v.value)], cased: false, raw: String(v.value) };
    case 'bytes':
      // pySigma keeps `wide` output a string of byte-valued characters, so `wide|contains` works.
      return { kind: 'string', parts: [String.fromCharCode(...v.bytes)], cased: true };
    default:
      return undefined;
  }
}

export function describeType(v: SigmaType): string {
  switch (v.kind) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'bool':
      return 'a boolean';
    case 'null':
      return 'null';
    case 'bytes':
      return 'encoded bytes';
    case 'regex':
      return 'a regular expression';
    case 'cidr':
      return 'a CIDR network';
    case 'compare':
      return 'a numeric comparison';
    case 'fieldref':
      return 'a field reference';
    case 'exists':
      return 'an existence test';
    case 'timepart':
      return 'a date-part comparison';
    case 'expansion':
      return 'a value expansion';
  }
}
