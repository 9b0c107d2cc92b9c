/**
 * Exact-shape validation of insight objects: one key naming the type, exactly the spec's fields,
 * the spec's vocabularies. Used by tests and by callers that accept insights from elsewhere.
 */
import { CATEGORIES, IMPORTANCE, INDEX_TABLE_COLUMNS, INSIGHT_TYPES } from './shapes.js';

type Problems = string[];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string');

function exactKeys(where: string, v: Record<string, unknown>, keys: readonly string[], out: Problems): void {
  const have = Object.keys(v).sort();
  const want = [...keys].sort();
  if (have.join('\0') !== want.join('\0'))
    out.push(`${where}: keys ${have.join(',')} should be ${want.join(',')}`);
}

function checkTimelineEntry(where: string, e: unknown, out: Problems): void {
  if (!isObject(e)) return void out.push(`${where}: not an object`);
  const keys = [
    'timestamp_start',
    'timestamp_end',
    'record_id',
    'short_name',
    'description',
    'category',
    'importance',
  ];
  exactKeys(where, e, keys, out);
  if (!Number.isSafeInteger(e.timestamp_start)) out.push(`${where}.timestamp_start: not an integer`);
  if (e.timestamp_end !== null && !Number.isSafeInteger(e.timestamp_end))
    out.push(`${where}.timestamp_end: not an integer or null`);
  if (!Number.isSafeInteger(e.record_id)) out.push(`${where}.record_id: not an integer`);
  for (const k of ['short_name', 'description'])
    if (typeof e[k] !== 'string') out.push(`${where}.${k}: not a string`);
  if (!(CATEGORIES as readonly unknown[]).includes(e.category))
    out.push(`${where}.category: ${String(e.category)}`);
  if (!(IMPORTANCE as readonly unknown[]).includes(e.importance))
    out.push(`${where}.importance: ${String(e.importance)}`);
}

function checkBody(type: string, b: Record<string, unknown>, out: Problems): void {
  const strings = (...keys: string[]) => {
    for (const k of keys) if (typeof b[k] !== 'string') out.push(`${type}.${k}: not a string`);
  };
  switch (type) {
    case 'Timeline':
      exactKeys(type, b, ['title', 'data', 'category'], out);
      strings('title', 'category');
      if (!Array.isArray(b.data)) return void out.push('Timeline.data: not an array');
      b.data.forEach((e, i) => {
        checkTimelineEntry(`Timeline.data[${i}]`, e, out);
      });
      return;
    case 'Table': {
      exactKeys(type, b, ['title', 'data', 'category'], out);
      strings('title', 'category');
      const rows = b.data;
      if (!Array.isArray(rows) || rows.length === 0) return void out.push('Table.data: needs a header row');
      const width = Array.isArray(rows[0]) ? rows[0].length : -1;
      rows.forEach((r, i) => {
        if (!isStringArray(r)) out.push(`Table.data[${i}]: not an array of strings`);
        else if (r.length !== width) out.push(`Table.data[${i}]: ${r.length} cells, header has ${width}`);
      });
      return;
    }
    case 'IndexTable':
      exactKeys(type, b, ['title', 'data', 'columns', 'category'], out);
      strings('title', 'category');
      if (JSON.stringify(b.columns) !== JSON.stringify(INDEX_TABLE_COLUMNS))
        out.push('IndexTable.columns: wrong');
      if (!Array.isArray(b.data)) return void out.push('IndexTable.data: not an array');
      b.data.forEach((r, i) => {
        const ok =
          Array.isArray(r) &&
          r.length === 2 &&
          isStringArray(r[0]) &&
          r[0].length === 6 &&
          isObject(r[1]) &&
          Object.values(r[1]).every((v) => typeof v === 'string');
        if (!ok) out.push(`IndexTable.data[${i}]: not [6 strings, object of strings]`);
      });
      return;
    case 'Chart':
      exactKeys(type, b, ['title', 'data', 'category', 'display_mode'], out);
      strings('title', 'category', 'display_mode');
      if (!Array.isArray(b.data)) return void out.push('Chart.data: not an array');
      b.data.forEach((p, i) => {
        if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || !Number.isFinite(p[1]))
          out.push(`Chart.data[${i}]: not a [label, number] pair`);
      });
      return;
    case 'Graph': {
      exactKeys(type, b, ['title', 'data', 'graph_metadata', 'category'], out);
      strings('title', 'data', 'category');
      const m = b.graph_metadata;
      if (!isObject(m)) return void out.push('Graph.graph_metadata: not an object');
      for (const k of ['_stats_original_nodes', '_stats_optimized_nodes'])
        if (!isStringArray(m[k])) out.push(`Graph.graph_metadata.${k}: not an array of strings`);
      for (const [k, v] of Object.entries(m)) {
        if (k.startsWith('_stats_')) continue;
        if (!k.startsWith('summary_')) out.push(`Graph.graph_metadata.${k}: unexpected key`);
        else if (!isStringArray(v)) out.push(`Graph.graph_metadata.${k}: not an array of strings`);
      }
      return;
    }
    case 'Metadata':
      exactKeys(type, b, ['title', 'data', 'category'], out);
      strings('title', 'category');
      if (!isObject(b.data) || !Object.values(b.data).every((v) => typeof v === 'string'))
        out.push('Metadata.data: not an object of strings');
      return;
    case 'Error':
      exactKeys(type, b, ['message'], out);
      strings('message');
      return;
  }
}

/** Every way `value` departs from the spec's insight shapes (empty when it is exact). */
export function insightProblems(value: unknown): string[] {
  const out: Problems = [];
  if (!isObject(value)) return ['not an object'];
  const keys = Object.keys(value);
  const type = keys[0];
  if (keys.length !== 1 || type === undefined || !(INSIGHT_TYPES as readonly string[]).includes(type))
    return [`keys ${keys.join(',')}: should be one of ${INSIGHT_TYPES.join(', ')}`];
  const body = value[type];
  if (!isObject(body)) return [`${type}: not an object`];
  checkBody(type, body, out);
  return out;
}
