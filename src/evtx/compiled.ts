/**
 * Compiled templates: a template renders the same way for every record whose values have
 * the same shape (see markers.ts), so each (template, shape) is rendered once with marker
 * values and split into static pieces and value slots. Records then cost a fill straight
 * into the output bytes instead of a tree walk. Arrays and embedded BinXML take the tree path.
 */
import {
  forgetLocals,
  type Locals,
  learnLocals,
  leaves,
  localsHold,
  markerize,
  type Owner,
  type Pieces,
  SLOT_ATTR,
  SLOT_JSON_DATA,
  SLOT_JSON_NULL,
  SLOT_JSON_SPLICE,
  SLOT_JSON_SUB,
  SLOT_JSON_SUB_DATA,
  SLOT_SUB,
  SLOT_XML_ATTR,
  SLOT_XML_ELEMENT,
  SLOT_XML_SPLICE,
  SLOT_XML_SUB,
  shapeOf,
  spliceSiblingsOf,
  split,
  subElementNames,
} from './markers.js';
import { renderJson, renderJsonSplice, renderJsonValue } from './render-json.js';
import { renderXml, renderXmlElementRest, renderXmlNodes } from './render-xml.js';
import type { Sink } from './sink.js';
import { instantiate, isInstance, type Substitution, type TemplateInstance } from './template.js';
import { isJsonScalarType, type XmlNode } from './tree.js';
import type { Value } from './values.js';
import { ESC_JSON, ESC_XML_ATTR, ESC_XML_TEXT, writeValue } from './write-value.js';

/** One output in one position: how it renders marker trees, and what it learnt about locals. */
interface Context {
  readonly tag: string;
  /** Null when the nodes cannot be compiled in this position. */
  readonly render: (nodes: XmlNode[]) => string | null;
  readonly isLocal: (kind: number) => boolean;
  readonly locals: Locals;
  /** Per template key, the pieces of the last shape compiled, for records of that same shape. */
  readonly recent: Map<number, Recent>;
}

/** Pieces whose slots are the template's own substitutions (no arrays split, no nested instance inlined). */
interface Recent {
  readonly local: readonly boolean[] | undefined;
  readonly classes: Int8Array;
  readonly pieces: Pieces;
}

const jsonLocal = (k: number) =>
  k === SLOT_JSON_NULL ||
  k === SLOT_JSON_DATA ||
  k === SLOT_JSON_SUB ||
  k === SLOT_JSON_SUB_DATA ||
  k === SLOT_JSON_SPLICE;
const xmlLocal = (k: number) =>
  k === SLOT_XML_ELEMENT || k === SLOT_XML_ATTR || k === SLOT_XML_SUB || k === SLOT_XML_SPLICE;

/** Contexts by tag; nested ones are made on demand (XML ones per element name and indent). */
const contexts = new Map<string, Context>();

function contextFor(
  tag: string,
  render: (nodes: XmlNode[]) => string | null,
  isLocal: (k: number) => boolean,
): Context {
  let c = contexts.get(tag);
  if (c === undefined) {
    c = { tag, render, isLocal, locals: new Map(), recent: new Map() };
    contexts.set(tag, c);
  }
  return c;
}

const JSON_ROOT = [
  contextFor('j', (nodes) => renderJson(nodes), jsonLocal),
  contextFor('J', (nodes) => renderJson(nodes, { timePrecision: '100ns' }), jsonLocal),
];
const XML_ROOT = contextFor('x', (nodes) => renderXml(nodes, { declaration: false }), xmlLocal);

function jsonContext(full: boolean, position: 'element' | 'container' | 'data'): Context {
  const options = { timePrecision: full ? '100ns' : 'crate' } as const;
  return contextFor(
    `${full ? 'J' : 'j'}${position[0]}`,
    (n) => renderJsonValue(n, position, options),
    jsonLocal,
  );
}

function jsonSpliceContext(full: boolean, context: number): Context {
  const options = { timePrecision: full ? '100ns' : 'crate' } as const;
  const siblings = spliceSiblingsOf(context);
  return contextFor(
    `${full ? 'J' : 'j'}s${context}`,
    (n) => renderJsonSplice(n, siblings, options),
    jsonLocal,
  );
}

const xmlSpliceContext = (indent: number): Context =>
  contextFor(`xs${indent}`, (n) => renderXmlNodes(n, indent), xmlLocal);

const xmlContext = (name: string, indent: number): Context =>
  contextFor(`x${indent}:${name}|`, (n) => renderXmlElementRest(name, n, indent), xmlLocal);

/** Compiled renderings by context, template key and shape, shared by every chunk; bounded like the keys. */
const MAX_COMPILED = 50_000;
const cache = new Map<string, Pieces | null>();

function remember<T extends Pieces | null>(id: string, value: T): T {
  if (cache.size >= MAX_COMPILED) {
    cache.clear();
    contexts.clear();
  }
  cache.set(id, value);
  return value;
}

const markerNodes = (inst: TemplateInstance, locals: Locals | 'all' | null, owners: Owner[]): XmlNode[] => {
  const m = markerize(inst, locals, owners);
  return instantiate(m.def.nodes, m.substitutions);
};

/** The pieces for this record's shape, compiling them (and learning the template's locals) once. */
function piecesFor(inst: TemplateInstance, ctx: Context): Pieces | null {
  const key = inst.def.key;
  if (!ctx.locals.has(key)) {
    if (shapeOf(inst, null) === null) return null;
    const owners: Owner[] = [];
    const probe = ctx.render(markerNodes(inst, 'all', owners));
    const p = probe === null ? null : split(probe);
    if (p !== null) learnLocals(p, owners, ctx.locals, ctx.isLocal);
    if (!ctx.locals.has(key)) ctx.locals.set(key, []);
    // When every slot turned out local, the probe is also what compiling the shape would render.
    if (p !== null && allLocal(owners, ctx.locals) && localsHold(p, owners, ctx.locals, ctx.isLocal)) {
      return remember(`${ctx.tag}${key}:${shapeOf(inst, ctx.locals)}`, withNames(p, owners));
    }
  }
  let shape = shapeOf(inst, ctx.locals);
  if (shape === null) return null;
  const id = `${ctx.tag}${key}:${shape}`;
  const cached = cache.get(id) as Pieces | null | undefined;
  if (cached !== undefined) return cached;
  const owners: Owner[] = [];
  let text = ctx.render(markerNodes(inst, ctx.locals, owners));
  if (text === null) return remember(id, null);
  const p = split(text);
  if (localsHold(p, owners, ctx.locals, ctx.isLocal)) return remember(id, withNames(p, owners));
  forgetLocals(owners, ctx.locals);
  shape = shapeOf(inst, ctx.locals)!;
  owners.length = 0;
  text = ctx.render(markerNodes(inst, ctx.locals, owners));
  return remember(`${ctx.tag}${key}:${shape}`, text === null ? null : withNames(split(text), owners));
}

const allLocal = (owners: readonly Owner[], locals: Locals): boolean =>
  owners.every((o) => locals.get(o.def.key)?.[o.index] === true);

/**
 * A substitution's part in the shape (see shapeOf): 0 a local value, 1 a local nested
 * instance, 2–4 an empty, scalar or string value that is not local; -1 when its slots are
 * not the substitution itself (a split array, an inlined or other embedded document).
 */
function classOf(v: Substitution, isLocal: boolean): number {
  if (Array.isArray(v)) return -1;
  if (isInstance(v)) return isLocal ? 1 : -1;
  const x = v as Value;
  if (x.parts !== null && x.parts.length > 1) return -1;
  if (isLocal) return 0;
  return x.empty ? 2 : isJsonScalarType(x.type) ? 3 : 4;
}

/** The pieces of the last shape compiled for this template, when this record has that shape. */
function recentPieces(inst: TemplateInstance, ctx: Context): Pieces | null {
  const key = inst.def.key;
  const r = ctx.recent.get(key);
  if (r === undefined || r.local !== ctx.locals.get(key)) return null;
  const subs = inst.substitutions;
  const classes = r.classes;
  if (subs.length !== classes.length) return null;
  const local = r.local;
  for (let i = 0; i < subs.length; i++) {
    if (classOf(subs[i]!, local !== undefined && local[i] === true) !== classes[i]) return null;
  }
  return r.pieces;
}

/** Set by slotPieces: the record's substitutions are the slot values as they are (no `leaves` needed). */
let direct = false;

/** Pieces for this record's shape; sets `direct`. */
function slotPieces(inst: TemplateInstance, ctx: Context): Pieces | null {
  const recent = recentPieces(inst, ctx);
  direct = recent !== null;
  if (recent !== null) return recent;
  const p = piecesFor(inst, ctx);
  if (p === null) return null;
  const key = inst.def.key;
  const local = ctx.locals.get(key);
  const subs = inst.substitutions;
  const classes = new Int8Array(subs.length);
  for (let i = 0; i < subs.length; i++) {
    classes[i] = classOf(subs[i]!, local !== undefined && local[i] === true);
    if (classes[i]! < 0) return p;
  }
  if (ctx.recent.size >= MAX_COMPILED) ctx.recent.clear();
  ctx.recent.set(key, { local, classes, pieces: p });
  direct = true;
  return p;
}

/** XML nested slots need the name of the element they fill. */
function withNames(p: Pieces, owners: readonly Owner[]): Pieces {
  for (let j = 0; j < p.ids.length; j++) {
    if (p.kinds[j] !== SLOT_XML_SUB) continue;
    const o = owners[p.ids[j]!]!;
    p.names[j] = subElementNames(o.def)[o.index] ?? '';
  }
  return p;
}

/** Writes the record's JSON; false when its values have no compiled form (the caller renders the tree). */
export function compiledJsonTo(sink: Sink, inst: TemplateInstance, fullPrecision: boolean): boolean {
  const start = sink.pos;
  if (fillJson(sink, inst, JSON_ROOT[fullPrecision ? 1 : 0]!, fullPrecision)) return true;
  sink.pos = start;
  return false;
}

function fillJson(sink: Sink, inst: TemplateInstance, ctx: Context, full: boolean): boolean {
  const p = slotPieces(inst, ctx);
  if (p === null) return false;
  const values = direct ? inst.substitutions : leaves(inst, ctx.locals);
  const micro = !full;
  const { chunks, ids, kinds } = p;
  sink.bytes(chunks[0]!);
  for (let i = 0; i < ids.length; i++) {
    const kind = kinds[i]!;
    if (kind >= SLOT_SUB) {
      const nested = values[ids[i]!] as TemplateInstance;
      const at = p.lengths[i]!;
      const sub =
        kind === SLOT_JSON_SPLICE
          ? jsonSpliceContext(full, at)
          : jsonContext(full, kind === SLOT_JSON_SUB_DATA ? 'data' : at === 1 ? 'container' : 'element');
      if (!fillJson(sink, nested, sub, full)) return false;
      sink.bytes(chunks[i + 1]!);
      continue;
    }
    const v = values[ids[i]!] as Value;
    if (kind === SLOT_JSON_NULL || kind === SLOT_JSON_DATA) {
      if (v.empty) sink.ascii(kind === SLOT_JSON_NULL ? 'null' : '""');
      else if (isJsonScalarType(v.type)) writeValue(sink, v, ESC_JSON, micro);
      else {
        sink.byte(34);
        writeValue(sink, v, ESC_JSON, micro);
        sink.byte(34);
      }
    } else writeValue(sink, v, ESC_JSON, micro);
    sink.bytes(chunks[i + 1]!);
  }
  return true;
}

/** Writes the record's XML without the declaration; false as for JSON. */
export function compiledXmlTo(sink: Sink, inst: TemplateInstance): boolean {
  const start = sink.pos;
  if (fillXml(sink, inst, XML_ROOT)) return true;
  sink.pos = start;
  return false;
}

function fillXml(sink: Sink, inst: TemplateInstance, ctx: Context): boolean {
  const p = slotPieces(inst, ctx);
  if (p === null) return false;
  const values = direct ? inst.substitutions : leaves(inst, ctx.locals);
  const { chunks, afterEmpty, prefixes, ids, kinds } = p;
  sink.bytes(chunks[0]!);
  for (let i = 0; i < ids.length; i++) {
    const kind = kinds[i]!;
    if (kind >= SLOT_SUB) {
      const nested = values[ids[i]!] as TemplateInstance;
      const at = p.lengths[i]!;
      const sub = kind === SLOT_XML_SPLICE ? xmlSpliceContext(at) : xmlContext(p.names[i]!, at);
      if (!fillXml(sink, nested, sub)) return false;
      sink.bytes(chunks[i + 1]!);
      continue;
    }
    const v = values[ids[i]!] as Value;
    if (kind === SLOT_XML_ELEMENT || kind === SLOT_XML_ATTR) {
      if (v.empty) {
        if (kind === SLOT_XML_ELEMENT) sink.ascii('/>');
        sink.bytes(afterEmpty[i + 1]!);
        continue;
      }
      if (kind === SLOT_XML_ELEMENT) sink.byte(62);
      else sink.bytes(prefixes[i]!);
    }
    writeValue(sink, v, kind === SLOT_ATTR || kind === SLOT_XML_ATTR ? ESC_XML_ATTR : ESC_XML_TEXT, false);
    sink.bytes(chunks[i + 1]!);
  }
  return true;
}
