/**
 * YAML for Sigma: js-yaml 5 with a schema that keeps the source text of plain numbers
 * (`00000429` must not become 429, §2.5), maps as `Map` (no prototype keys, no reordering of
 * integer-like keys), aliases refused outright (alias bombs), and a size cap checked before
 * the parser sees the text.
 */
import {
  CORE_SCHEMA,
  defineMappingTag,
  defineScalarTag,
  floatCoreTag,
  intCoreTag,
  loadAll,
  NOT_RESOLVED,
  type ScalarTagDefinition,
  YAMLException,
} from 'js-yaml';
import type { DiagnosticCode } from './diagnostics.js';
import { MAX_YAML_DEPTH } from './limits.js';

/** A plain (unquoted) YAML number: its text is what Sigma compares, the value only for ranges. */
export class YamlNumber {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}
  toString(): string {
    return this.text;
  }
}

export type YamlScalar = string | YamlNumber | boolean | null;
export type YamlValue = YamlScalar | readonly YamlValue[] | YamlMap;
export type YamlMap = ReadonlyMap<string, YamlValue>;

export const isYamlMap = (v: YamlValue | undefined): v is YamlMap => v instanceof Map;
export const isYamlList = (v: YamlValue | undefined): v is readonly YamlValue[] => Array.isArray(v);
export const isYamlScalar = (v: YamlValue | undefined): v is YamlScalar =>
  v !== undefined && !isYamlMap(v) && !isYamlList(v);

/** The text a scalar stands for when a string is wanted (`4688`, `true`, `null` → ''). */
export function scalarText(v: YamlScalar): string {
  if (v === null) return '';
  return typeof v === 'string' ? v : String(v);
}

function keepText(base: ScalarTagDefinition<number>): ScalarTagDefinition<YamlNumber> {
  return defineScalarTag(base.tagName, {
    implicit: true,
    implicitFirstChars: base.implicitFirstChars,
    resolve: (source, isExplicit, tagName) => {
      const value = base.resolve(source, isExplicit, tagName);
      return value === NOT_RESOLVED ? NOT_RESOLVED : new YamlNumber(source, value);
    },
    identify: () => false,
  });
}

const mapTag = defineMappingTag<Map<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => new Map(),
  addPair: (map, key, value) => {
    if (typeof key === 'string' || key instanceof YamlNumber || typeof key === 'boolean' || key === null) {
      map.set(String(key), value);
      return '';
    }
    return 'mapping keys must be scalars';
  },
  has: (map, key) => map.has(String(key)),
  keys: (map) => map.keys(),
  get: (map, key) => map.get(String(key)),
  identify: () => false,
});

const SCHEMA = CORE_SCHEMA.withTags(keepText(intCoreTag), keepText(floatCoreTag), mapTag);

export const DEFAULT_MAX_CHARS = 1024 * 1024;

export type YamlParse =
  | { readonly ok: true; readonly documents: readonly YamlValue[] }
  | { readonly ok: false; readonly code: DiagnosticCode; readonly message: string };

/** Parses every document of a file; on a syntax error, the whole file fails (see `splitDocuments`). */
export function parseYaml(text: string, maxChars = DEFAULT_MAX_CHARS): YamlParse {
  if (text.length > maxChars)
    return {
      ok: false,
      code: 'input.too_large',
      message: `rule text has ${text.length} characters, more than the limit of ${maxChars}`,
    };
  try {
    return {
      ok: true,
      documents: loadAll(text, { schema: SCHEMA, maxAliases: 0, maxDepth: MAX_YAML_DEPTH }) as YamlValue[],
    };
  } catch (e) {
    if (!(e instanceof YAMLException)) return { ok: false, code: 'yaml.syntax', message: String(e) };
    const where = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    if (e.reason.includes('maxAliases'))
      return { ok: false, code: 'yaml.alias', message: `YAML aliases are not allowed in rules${where}` };
    if (e.reason.includes('maxDepth'))
      return {
        ok: false,
        code: 'yaml.depth',
        message: `YAML nesting is deeper than ${MAX_YAML_DEPTH} levels${where}`,
      };
    return { ok: false, code: 'yaml.syntax', message: `${e.reason}${where}` };
  }
}

/**
 * Splits a multi-document file at `---` lines so that one broken document does not take
 * its neighbours down; only used after the whole file failed to parse.
 */
export function splitDocuments(text: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (/^---(\s|$)/.test(line) && current.some((l) => l.trim() !== '' && !l.startsWith('#'))) {
      parts.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  parts.push(current.join('\n'));
  return parts;
}
