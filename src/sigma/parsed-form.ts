/**
 * Parsed rule texts (`parseRuleText`) as bytes and back: what the rule cache keeps on disk and
 * what decode workers load, so that neither parses YAML again. Each distinct string is kept
 * once, in a table the values point into: SigmaHQ's parse holds 164,000 strings, 46,000
 * distinct (map keys and values such as `windows` repeat in every rule), and one string object
 * for each cost a warm load 4 MB of heap that every young collection copied. Maps are lists of
 * key positions and values; a plain number keeps its text. The bytes are not trusted (a cache
 * file may be truncated or foreign): decoding refuses anything the parser could not have made.
 */
import { deserialize, serialize } from 'node:v8';
import type { RuleDiagnostic } from './diagnostics.js';
import { MAX_YAML_DEPTH } from './limits.js';
import type { ParsedRuleText } from './load.js';
import { YamlNumber, type YamlValue } from './yaml.js';

/** Bytes that do not decode to parser output: the caller parses the texts instead. */
export class ParsedFormError extends Error {}

/** Deeper than the parser goes (js-yaml's maxDepth is MAX_YAML_DEPTH), so no parse is refused. */
const MAX_DEPTH = MAX_YAML_DEPTH + 28;

/** A string: its position in the table. A map: `{ m: [key position, value, …] }`. */
type Encoded = number | boolean | null | Encoded[] | { m: Encoded[] } | { n: string; v: number };

interface Form {
  readonly strings: readonly string[];
  readonly texts: readonly { readonly d: Encoded[]; readonly g: readonly RuleDiagnostic[] }[];
}

export function encodeParsed(parsed: readonly ParsedRuleText[]): Uint8Array {
  const positions = new Map<string, number>();
  const strings: string[] = [];
  const at = (s: string): number => {
    let i = positions.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      positions.set(s, i);
    }
    return i;
  };
  const encode = (v: YamlValue): Encoded => {
    if (typeof v === 'string') return at(v);
    if (v === null || typeof v === 'boolean') return v;
    if (v instanceof YamlNumber) return { n: v.text, v: v.value };
    if (Array.isArray(v)) return v.map(encode);
    const m: Encoded[] = [];
    for (const [k, x] of v as ReadonlyMap<string, YamlValue>) m.push(at(k), encode(x));
    return { m };
  };
  const texts = parsed.map((p) => ({ d: p.documents.map(encode), g: p.diagnostics }));
  return serialize({ strings, texts } satisfies Form);
}

const isPlain = (v: object): boolean => Object.getPrototypeOf(v) === Object.prototype;

/** Values back in place (lists are the decoded arrays themselves), refusing any other shape. */
function decoder(strings: readonly string[]) {
  const text = (i: unknown): string => {
    if (typeof i !== 'number' || i >>> 0 !== i || i >= strings.length) throw new ParsedFormError('string');
    return strings[i]!;
  };
  const decode = (v: unknown, depth: number): YamlValue => {
    if (typeof v === 'number') return text(v);
    if (v === null || typeof v === 'boolean') return v;
    if (depth > MAX_DEPTH || typeof v !== 'object') throw new ParsedFormError('value');
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = decode(v[i], depth + 1);
      return v as YamlValue[];
    }
    if (!isPlain(v)) throw new ParsedFormError('value');
    const { m, n, v: value } = v as { m?: unknown; n?: unknown; v?: unknown };
    if (Array.isArray(m) && (m.length & 1) === 0) {
      const map = new Map<string, YamlValue>();
      for (let i = 0; i < m.length; i += 2) map.set(text(m[i]), decode(m[i + 1], depth + 1));
      return map;
    }
    if (typeof n === 'string' && typeof value === 'number') return new YamlNumber(n, value);
    throw new ParsedFormError('value');
  };
  return decode;
}

function diagnosticOf(v: unknown, source: string): RuleDiagnostic {
  const d = v as Partial<RuleDiagnostic> | null;
  if (d === null || typeof d !== 'object' || typeof d.code !== 'string' || typeof d.message !== 'string')
    throw new ParsedFormError('diagnostic');
  if (d.source !== source || (d.document !== undefined && typeof d.document !== 'number'))
    throw new ParsedFormError('diagnostic');
  return d as RuleDiagnostic;
}

/** `encodeParsed`'s bytes back, one entry per source; throws ParsedFormError on any other bytes. */
export function decodeParsed(bytes: Uint8Array, sources: readonly string[]): ParsedRuleText[] {
  let raw: Partial<Form> | null;
  try {
    raw = deserialize(bytes) as Partial<Form> | null;
  } catch (e) {
    throw new ParsedFormError('not V8 serialized data', { cause: e });
  }
  if (raw === null || typeof raw !== 'object' || !Array.isArray(raw.strings) || !Array.isArray(raw.texts))
    throw new ParsedFormError('head');
  const { strings, texts } = raw;
  if (texts.length !== sources.length) throw new ParsedFormError('length');
  for (const s of strings) if (typeof s !== 'string') throw new ParsedFormError('strings');
  const decode = decoder(strings);
  return texts.map((t, i) => {
    if (t === null || typeof t !== 'object' || !Array.isArray(t.d) || !Array.isArray(t.g))
      throw new ParsedFormError('text');
    const documents = t.d as unknown as YamlValue[];
    for (let d = 0; d < documents.length; d++) documents[d] = decode(documents[d], 0);
    for (const g of t.g) diagnosticOf(g, sources[i]!);
    return { documents, diagnostics: t.g };
  });
}
