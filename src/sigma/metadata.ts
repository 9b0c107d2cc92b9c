/** Reading the keys every document type shares, and the logsource, with typed errors. */
import { fail } from './diagnostics.js';
import { LEVELS, type LogSource, type RelatedRule, type RuleMeta, STATUSES } from './model.js';
import {
  isYamlList,
  isYamlMap,
  isYamlScalar,
  scalarText,
  type YamlMap,
  YamlNumber,
  type YamlValue,
} from './yaml.js';

/** A scalar as text (dates like `2024-01-01` are strings in YAML 1.2; numbers keep their text). */
export function optionalText(doc: YamlMap, key: string): string | undefined {
  const v = doc.get(key);
  if (v === undefined || v === null) return undefined;
  if (!isYamlScalar(v)) fail('rule.invalid_field', `'${key}' must be a single value`);
  return scalarText(v);
}

export function requiredText(doc: YamlMap, key: string, where = ''): string {
  const v = optionalText(doc, key);
  if (v === undefined || v.trim() === '') fail('rule.missing_field', `${where}'${key}' is required`);
  return v;
}

const NO_TEXTS: readonly string[] = Object.freeze([]);

/** A list of texts; a single scalar is read as a one-element list (a common authoring slip). */
export function textList(doc: YamlMap, key: string): readonly string[] {
  const v = doc.get(key);
  if (v === undefined || v === null) return NO_TEXTS;
  const list = isYamlList(v) ? v : [v];
  // Tags and references are nearly always plain strings: the parsed list is then the answer
  // (no copy; both are read-only), which a warm load of 3,141 rules does 12,000 times.
  if (list.every((e) => typeof e === 'string')) return list as readonly string[];
  return list.map((e) => {
    if (!isYamlScalar(e)) fail('rule.invalid_field', `'${key}' must list scalar values`);
    return scalarText(e);
  });
}

function enumText<T extends string>(doc: YamlMap, key: string, allowed: readonly T[]): T | undefined {
  const v = optionalText(doc, key);
  if (v === undefined) return undefined;
  const lower = v.toLowerCase() as T;
  if (!allowed.includes(lower))
    fail('rule.invalid_field', `'${key}' must be one of ${allowed.join(', ')}, not '${v}'`);
  return lower;
}

function related(doc: YamlMap): RelatedRule[] {
  const v = doc.get('related');
  if (v === undefined || v === null) return [];
  if (!isYamlList(v)) fail('rule.invalid_field', "'related' must be a list");
  return v.map((r) => {
    if (!isYamlMap(r)) fail('rule.invalid_field', "'related' entries must be maps with id and type");
    return { id: requiredText(r, 'id', 'related: '), type: requiredText(r, 'type', 'related: ') };
  });
}

const OPTIONAL_TEXTS = [
  'id',
  'name',
  'status',
  'level',
  'description',
  'author',
  'date',
  'modified',
  'license',
];

export function readMeta(doc: YamlMap, source: string, document: number): RuleMeta {
  const title = requiredText(doc, 'title');
  const meta: Record<string, unknown> = {
    title,
    tags: textList(doc, 'tags'),
    references: textList(doc, 'references'),
    falsepositives: textList(doc, 'falsepositives'),
    fields: textList(doc, 'fields'),
    related: related(doc),
    source,
    document,
    raw: doc,
  };
  // Set one by one, in this order (a rule's keys print in it), only those present.
  for (const key of OPTIONAL_TEXTS) {
    const v =
      key === 'status'
        ? enumText(doc, key, STATUSES)
        : key === 'level'
          ? enumText(doc, key, LEVELS)
          : optionalText(doc, key);
    if (v !== undefined) meta[key] = v;
  }
  return meta as unknown as RuleMeta;
}

const LOGSOURCE_KEYS = ['product', 'category', 'service', 'definition'] as const;

export function readLogSource(v: YamlValue | undefined): LogSource {
  if (v === undefined || v === null) fail('rule.missing_field', "'logsource' is required");
  if (!isYamlMap(v) || v.size === 0) fail('rule.invalid_field', "'logsource' must be a non-empty map");
  const extra: Record<string, string> = {};
  const known: Partial<Record<(typeof LOGSOURCE_KEYS)[number], string>> = {};
  for (const [k, value] of v) {
    if (value === null) continue;
    if (typeof value !== 'string' && !(value instanceof YamlNumber))
      fail('rule.invalid_field', `logsource '${k}' must be a string`);
    const text = scalarText(value);
    if ((LOGSOURCE_KEYS as readonly string[]).includes(k)) known[k as (typeof LOGSOURCE_KEYS)[number]] = text;
    else extra[k] = text;
  }
  return { ...known, extra };
}
