/**
 * Compiled templates: a template renders the same way for every record whose values have
 * the same shape (empty, bare JSON scalar, or text), so each (template, shape) is rendered
 * once with marker values and split into static pieces and value slots. Records then cost
 * a string fill instead of a tree walk. Arrays and embedded BinXML take the tree path.
 */
import { randomBytes } from 'node:crypto';
import { type EventText, eventText } from './event.js';
import { type JsonRenderOptions, jsonString, renderJson } from './render-json.js';
import { escapeXmlAttr, escapeXmlText, renderXml } from './render-xml.js';
import { instantiate, isInstance, type Substitution, type TemplateInstance } from './template.js';
import { toMicrosecondText } from './time.js';
import { isJsonScalarType, VALUE_TYPE as T, type XmlValue } from './tree.js';
import { nullValue } from './values.js';

/** Marker openers: text to escape for its context, raw (bare JSON scalar), XML attribute. */
export const MARK_TEXT = '\uE000';
export const MARK_RAW = '\uE002';
export const MARK_ATTR = '\uE003';
const MARK_END = '\uE001';
/** A per-process nonce, so marker-like text inside a hostile template cannot pose as a slot. */
const NONCE = randomBytes(6).toString('hex');
const SLOT = new RegExp(`([${MARK_TEXT}${MARK_RAW}${MARK_ATTR}])${NONCE}(\\d+)${MARK_END}`, 'g');

type SlotKind = 0 | 1 | 2; // text, raw, attr

interface Pieces {
  readonly statics: string[];
  readonly ids: number[];
  readonly kinds: SlotKind[];
}

interface Compiled {
  json?: Pieces;
  jsonFull?: Pieces;
  xml?: Pieces;
  event?: EventRecipe | null;
}

type TextRecipe = string | Pieces | null;

interface EventRecipe {
  readonly fields: [keyof EventText, TextRecipe][];
  readonly data: [string, TextRecipe][];
  readonly unnamedData: TextRecipe[];
  readonly userDataName: string | null;
}

/**
 * One char per value: e(mpty), n(umber-like, bare in JSON), s(tring); a nested template
 * instance as `x<offset>(…)`. Null when not compilable (arrays, other embedded BinXML).
 */
export function shapeOf(subs: readonly Substitution[]): string | null {
  let s = '';
  for (const v of subs) {
    if (Array.isArray(v)) return null;
    if (isInstance(v)) {
      const inner = shapeOf(v.substitutions);
      if (inner === null) return null;
      s += `x${v.def.key}(${inner})`;
    } else if (v.items !== null) return null;
    else s += v.type === T.NULL || v.text.length === 0 ? 'e' : isJsonScalarType(v.type) ? 'n' : 's';
  }
  return s;
}

/** The leaf values in the order `markerize` numbers them. */
function leaves(subs: readonly Substitution[], out: XmlValue[] = []): XmlValue[] {
  for (const v of subs) {
    if (isInstance(v)) leaves(v.substitutions, out);
    else out.push(v as XmlValue);
  }
  return out;
}

function markerize(subs: readonly Substitution[], counter: { n: number }): Substitution[] {
  return subs.map((v) => {
    if (isInstance(v)) return { def: v.def, substitutions: markerize(v.substitutions, counter) };
    const id = counter.n++;
    const x = v as XmlValue;
    if (x.type === T.NULL || x.text.length === 0) return nullValue;
    return { kind: 'value', type: x.type, text: `${MARK_TEXT}${NONCE}${id}${MARK_END}`, items: null };
  });
}

/** Compiled renderers by template key and shape, shared by every chunk; bounded like the keys. */
const MAX_COMPILED = 50_000;
const cache = new Map<string, Compiled>();

function compiledFor(inst: TemplateInstance, shape: string): Compiled {
  const id = `${inst.def.key}:${shape}`;
  let c = cache.get(id);
  if (c === undefined) {
    if (cache.size >= MAX_COMPILED) cache.clear();
    c = {};
    cache.set(id, c);
  }
  return c;
}

function markerNodes(inst: TemplateInstance) {
  return instantiate(inst.def.nodes, markerize(inst.substitutions, { n: 0 }));
}

function split(rendered: string): Pieces {
  const statics: string[] = [];
  const ids: number[] = [];
  const kinds: SlotKind[] = [];
  let last = 0;
  for (const m of rendered.matchAll(SLOT)) {
    statics.push(rendered.slice(last, m.index));
    kinds.push(m[1] === MARK_TEXT ? 0 : m[1] === MARK_RAW ? 1 : 2);
    ids.push(Number(m[2]));
    last = m.index + m[0].length;
  }
  statics.push(rendered.slice(last));
  return { statics, ids, kinds };
}

type Escape = (v: XmlValue, kind: SlotKind) => string;

function fill(p: Pieces, values: readonly XmlValue[], escapeSlot: Escape): string {
  let s = p.statics[0]!;
  for (let i = 0; i < p.ids.length; i++) {
    s += escapeSlot(values[p.ids[i]!]!, p.kinds[i]!) + p.statics[i + 1]!;
  }
  return s;
}

const jsonEscape =
  (full: boolean): Escape =>
  (v, kind) => {
    const type = v.type;
    if (kind === 1) return v.text;
    // Only strings can hold quotes, backslashes or control characters; other types are plain ASCII.
    if (type === T.STRING || type === T.ANSI_STRING) {
      return NEEDS_JSON_ESCAPE.test(v.text) ? jsonString(v.text).slice(1, -1) : v.text;
    }
    return !full && (type === T.FILETIME || type === T.SYSTEMTIME) ? toMicrosecondText(v.text) : v.text;
  };
const NEEDS_JSON_ESCAPE = /["\\\u0000-\u001f]/;
const JSON_CRATE = jsonEscape(false);
const JSON_FULL = jsonEscape(true);
const XML_ESCAPE: Escape = (v, kind) => (kind === 2 ? escapeXmlAttr(v.text) : escapeXmlText(v.text));
const RAW: Escape = (v) => v.text;

export function compiledJson(inst: TemplateInstance, options: JsonRenderOptions = {}): string | null {
  const shape = shapeOf(inst.substitutions);
  if (shape === null) return null;
  const c = compiledFor(inst, shape);
  const full = options.timePrecision === '100ns';
  let p = full ? c.jsonFull : c.json;
  if (p === undefined) {
    p = split(renderJson(markerNodes(inst), options));
    if (full) c.jsonFull = p;
    else c.json = p;
  }
  return fill(p, leaves(inst.substitutions), full ? JSON_FULL : JSON_CRATE);
}

export function compiledXml(inst: TemplateInstance): string | null {
  const shape = shapeOf(inst.substitutions);
  if (shape === null) return null;
  const c = compiledFor(inst, shape);
  c.xml ??= split(renderXml(markerNodes(inst)));
  return fill(c.xml, leaves(inst.substitutions), XML_ESCAPE);
}

const recipeOf = (s: string | null): TextRecipe => {
  if (s === null || !s.includes(NONCE)) return s;
  return split(s);
};

function compileEvent(inst: TemplateInstance): EventRecipe | null {
  const t = eventText(markerNodes(inst));
  const fields: [keyof EventText, TextRecipe][] = [];
  for (const k of Object.keys(t) as (keyof EventText)[]) {
    if (k === 'data' || k === 'unnamedData' || k === 'userDataName') continue;
    fields.push([k, recipeOf(t[k] as string | null)]);
  }
  const data: [string, TextRecipe][] = [];
  for (const [k, v] of Object.entries(t.data)) {
    if (k.includes(NONCE) || typeof v !== 'string') return null;
    data.push([k, recipeOf(v)]);
  }
  if (t.userDataName?.includes(NONCE)) return null;
  return { fields, data, unnamedData: t.unnamedData.map(recipeOf), userDataName: t.userDataName };
}

const fillText = (r: TextRecipe, values: readonly XmlValue[]): string | null =>
  r === null || typeof r === 'string' ? r : fill(r, values, RAW);

export function compiledEventText(inst: TemplateInstance): EventText | null {
  const shape = shapeOf(inst.substitutions);
  if (shape === null) return null;
  const c = compiledFor(inst, shape);
  if (c.event === undefined) c.event = compileEvent(inst);
  const r = c.event;
  if (r === null) return null;
  const subs = leaves(inst.substitutions);
  const out = { data: {}, unnamedData: [], userDataName: r.userDataName } as unknown as EventText;
  for (const [k, v] of r.fields) (out as unknown as Record<string, string | null>)[k] = fillText(v, subs);
  for (const [k, v] of r.data) out.data[k] = fillText(v, subs) ?? '';
  for (const v of r.unnamedData) out.unnamedData.push(fillText(v, subs) ?? '');
  return out;
}
