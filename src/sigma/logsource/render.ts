/**
 * YAML lines for a variant: the rule's own keys in their order, with `logsource` and
 * `detection` replaced. Strings are written as JSON strings (JSON is YAML 1.2), numbers with
 * their source text unquoted (so `00000429` stays that text when the loader reads it back).
 */
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { isYamlList, isYamlMap, type YamlScalar, type YamlValue } from '../yaml.js';
import { conditionText } from './condition-text.js';
import { uniqueKeys } from './unique-keys.js';

export type Emit = YamlScalar | readonly Emit[] | ReadonlyMap<string, Emit>;

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.|-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n)$/i;

/** JSON escapes, plus NEL and the Unicode line separators some YAML readers break lines at. */
export const quote = (s: string): string =>
  JSON.stringify(s).replace(
    /[\u0085\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const key = (k: string): string => (PLAIN_KEY.test(k) && !RESERVED.test(k) ? k : quote(k));

function scalar(v: YamlScalar): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return quote(v);
  return v.text;
}

const isMap = (v: Emit): v is ReadonlyMap<string, Emit> => isYamlMap(v as YamlValue);
const isList = (v: Emit): v is readonly Emit[] => isYamlList(v as YamlValue);
const isEmpty = (v: Emit): boolean => (isMap(v) ? v.size === 0 : isList(v) && v.length === 0);

/** `value` after `head` (`key:` or `-`) at `indent`; a nested block continues two spaces in. */
function emit(value: Emit, indent: string, head: string, out: string[]): void {
  if (isEmpty(value)) {
    out.push(`${indent}${head} ${isMap(value) ? '{}' : '[]'}`);
    return;
  }
  if (!isMap(value) && !isList(value)) {
    out.push(`${indent}${head} ${scalar(value)}`);
    return;
  }
  const inner = `${indent}  `;
  const lines: string[] = [];
  if (isMap(value)) for (const [k, v] of value) emit(v, inner, `${key(k)}:`, lines);
  else for (const v of value) emit(v, inner, '-', lines);
  if (head === '-') {
    // A block inside a list item starts on the dash line.
    out.push(`${indent}- ${lines[0]!.slice(inner.length)}`, ...lines.slice(1));
  } else out.push(`${indent}${head}`, ...lines);
}

const itemKey = (item: DetectionItem): string => [item.field ?? '', ...item.modifiers].join('|');
const itemValue = (item: DetectionItem): Emit =>
  item.values.length === 1 ? item.values[0]! : [...item.values];

function nodeValue(node: DetectionNode): Emit {
  switch (node.kind) {
    case 'all':
      return new Map(node.items.map((i) => [itemKey(i), itemValue(i)]));
    case 'any':
      return node.nodes.map(nodeValue);
  }
}

/** The detection section (maps that would repeat a key are split first: see `uniqueKeys`). */
export function detectionValue(detection: Detection): ReadonlyMap<string, Emit> {
  const unique = uniqueKeys(detection, itemKey);
  const out = new Map<string, Emit>();
  for (const [name, node] of unique.identifiers) out.set(name, nodeValue(node));
  out.set('condition', conditionText(unique.condition));
  return out;
}

/** The rule document with some top-level keys replaced (or appended), as YAML lines. */
export function renderDocument(
  raw: ReadonlyMap<string, YamlValue>,
  replace: ReadonlyMap<string, Emit>,
): string[] {
  const out: string[] = [];
  for (const [k, v] of raw) emit(replace.has(k) ? replace.get(k)! : v, '', `${key(k)}:`, out);
  for (const [k, v] of replace) if (!raw.has(k)) emit(v, '', `${key(k)}:`, out);
  return out;
}
