/**
 * Parsed rule texts (`parseRuleText`) as bytes and back: what the rule cache keeps on disk and
 * what decode workers load, so that neither parses YAML again. The bytes are not trusted
 * (a cache file may be truncated or foreign): decoding refuses anything the parser could not
 * have made, and then rebuilds the values in place (a copy would double the allocation of a
 * rule set whose parse is all of its rule data).
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

export const encodeParsed = (parsed: readonly ParsedRuleText[]): Uint8Array => serialize(parsed);

/** A plain object as V8's deserializer makes one (YamlNumber's class is not kept). */
const isPlain = (v: object): boolean => Object.getPrototypeOf(v) === Object.prototype;

function revive(v: unknown, depth: number): YamlValue {
  if (typeof v === 'string' || v === null || typeof v === 'boolean') return v;
  if (depth > MAX_DEPTH) throw new ParsedFormError('too deep');
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i], depth + 1);
    return v as YamlValue[];
  }
  if (v instanceof Map) {
    // forEach, not for…of: no entry array per key, which a warm load made 300,000 of.
    v.forEach((x: unknown, k: unknown) => {
      if (typeof k !== 'string') throw new ParsedFormError('map key');
      const y = revive(x, depth + 1);
      if (y !== x) v.set(k, y);
    });
    return v as Map<string, YamlValue>;
  }
  if (typeof v === 'object' && isPlain(v)) {
    const { text, value } = v as { text?: unknown; value?: unknown };
    if (typeof text === 'string' && typeof value === 'number' && Object.keys(v).length === 2)
      return new YamlNumber(text, value);
  }
  throw new ParsedFormError('value');
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
  let raw: unknown;
  try {
    raw = deserialize(bytes);
  } catch (e) {
    throw new ParsedFormError('not V8 serialized data', { cause: e });
  }
  if (!Array.isArray(raw) || raw.length !== sources.length) throw new ParsedFormError('length');
  const out: ParsedRuleText[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const p = raw[i] as { documents?: unknown; diagnostics?: unknown } | null;
    if (p === null || typeof p !== 'object' || !Array.isArray(p.documents) || !Array.isArray(p.diagnostics))
      throw new ParsedFormError('entry');
    const { documents, diagnostics } = p;
    for (let d = 0; d < documents.length; d++) documents[d] = revive(documents[d], 0);
    for (const d of diagnostics) diagnosticOf(d, sources[i]!);
    out[i] = { documents, diagnostics };
  }
  return out;
}
