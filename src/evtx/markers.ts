/**
 * Marker values for compiled templates: a template is rendered once with markers in place
 * of its values, and the text is split into static pieces and numbered value slots.
 *
 * Slots whose whole rendering is decided by their own value (an element's sole content, an
 * XML attribute made of one value) are "local": their emptiness and JSON type are decided
 * when filling, so they stay out of the shape and far fewer shapes need compiling. Which
 * slots are local is learnt per template key from a probe rendering, and every compile
 * verifies it (a template where it does not hold just keeps those slots in its shapes).
 */
import { randomBytes } from 'node:crypto';
import type { TemplateElement, TemplateNode } from './binxml.js';
import { utf8 } from './sink.js';
import { isInstance, type Substitution, type TemplateDefinition, type TemplateInstance } from './template.js';
import { isJsonScalarType } from './tree.js';
import { nullValue, type Value } from './values.js';

/** Slot kinds, by the char opening their marker (U+E000 + kind). */
export const SLOT_TEXT = 0; // text escaped for its context
export const SLOT_RAW = 2; // a bare JSON scalar
export const SLOT_ATTR = 3; // XML attribute text
export const SLOT_JSON_NULL = 4; // a JSON element value: null when empty, bare or quoted
export const SLOT_JSON_DATA = 5; // the same for a flattened Data value: "" when empty
export const SLOT_XML_ELEMENT = 6; // `>value</name>`, or `/>` when empty; carries the close tag's length
export const SLOT_XML_ATTR = 7; // ` name="value"` or nothing when empty; carries the prefix length
/**
 * An embedded template instance that is all of an element's content: the
 * element's value is filled from the nested template's own compiled pieces, so templates
 * that embed many different EventData templates compile once each instead of per pair.
 */
export const SLOT_SUB = 8; // a nested instance's marker where it cannot be filled (not local)
export const SLOT_JSON_SUB = 9; // an element's JSON value; carries 1 for an EventData/UserData container
export const SLOT_JSON_SUB_DATA = 10; // a Data element's JSON value
export const SLOT_XML_SUB = 11; // the element's XML after `<name`; carries the indent
export const SLOT_JSON_SPLICE = 12; // parts among an element's other children; carries a splice context
export const SLOT_XML_SPLICE = 13; // nodes among an element's other children; carries the indent
const END = '\uE001';

/** A per-process nonce, so marker-like text inside a hostile template cannot pose as a slot. */
const NONCE = randomBytes(6).toString('hex');
const SLOT = new RegExp(`([\uE000\uE002-\uE00D])${NONCE}(\\d+)(?:\\.(\\d+))?${END}`, 'g');

export const MARK_CODE = 0xe000;
export const isMarker = (s: string): boolean =>
  (s.charCodeAt(0) === MARK_CODE || s.charCodeAt(0) === MARK_CODE + SLOT_SUB) && s.includes(NONCE);
export const isSubMarker = (s: string): boolean => s.charCodeAt(0) === MARK_CODE + SLOT_SUB;
export const hasMarker = (s: string): boolean => s.includes(NONCE);

/**
 * Re-opens a marker as `kind`, with an optional length the fill needs. A nested instance's
 * marker only becomes one of the SUB kinds; anywhere else it stays SLOT_SUB.
 */
export function remark(marker: string, kind: number, length?: number): string {
  const body = marker.slice(1, -1);
  if (isSubMarker(marker)) {
    const sub = SUB_KINDS[kind];
    if (sub === undefined) return marker;
    kind = sub;
  } else length = kind === SLOT_XML_ELEMENT || kind === SLOT_XML_ATTR ? length : undefined;
  return `${String.fromCharCode(MARK_CODE + kind)}${body}${length === undefined ? '' : `.${length}`}${END}`;
}

const SUB_KINDS: Readonly<Record<number, number>> = {
  [SLOT_JSON_NULL]: SLOT_JSON_SUB,
  [SLOT_JSON_DATA]: SLOT_JSON_SUB_DATA,
  [SLOT_XML_ELEMENT]: SLOT_XML_SUB,
  [SLOT_JSON_SPLICE]: SLOT_JSON_SPLICE,
  [SLOT_XML_SPLICE]: SLOT_XML_SPLICE,
};

/** Splice contexts (the names of a spliced instance's siblings) by number; bounded, never reset. */
const MAX_SPLICE_CONTEXTS = 10_000;
const spliceIds = new Map<string, number>();
const spliceSiblings: string[][] = [];

/** The number of a splice context, or -1 when there are too many (the slot then is not local). */
export function spliceContext(siblings: string[]): number {
  const id = JSON.stringify(siblings);
  let n = spliceIds.get(id);
  if (n === undefined) {
    if (spliceSiblings.length >= MAX_SPLICE_CONTEXTS) return -1;
    n = spliceSiblings.length;
    spliceSiblings.push(siblings);
    spliceIds.set(id, n);
  }
  return n;
}

export const spliceSiblingsOf = (context: number): readonly string[] => spliceSiblings[context] ?? [];

export interface Pieces {
  readonly statics: string[];
  /** statics[i] as UTF-8, without a prefix that slot i writes itself (SLOT_XML_ATTR). */
  readonly chunks: Uint8Array[];
  /** chunks[i] without its head, for when slot i-1 is local, empty and consumes it (XML). */
  readonly afterEmpty: (Uint8Array | null)[];
  /** The prefix a SLOT_XML_ATTR slot writes when not empty. */
  readonly prefixes: (Uint8Array | null)[];
  readonly ids: number[];
  readonly kinds: number[];
  /** Per slot, the length its marker carried (0 if none). */
  readonly lengths: number[];
  /** Per SLOT_XML_SUB slot, the name of the element it fills (set by the compiler). */
  readonly names: string[];
}

export function split(rendered: string): Pieces {
  const statics: string[] = [];
  const ids: number[] = [];
  const kinds: number[] = [];
  const lengths: number[] = [];
  let last = 0;
  for (const m of rendered.matchAll(SLOT)) {
    statics.push(rendered.slice(last, m.index));
    kinds.push(m[1]!.charCodeAt(0) - MARK_CODE);
    ids.push(Number(m[2]));
    lengths.push(m[3] === undefined ? 0 : Number(m[3]));
    last = m.index + m[0].length;
  }
  statics.push(rendered.slice(last));
  const chunks: Uint8Array[] = [];
  const afterEmpty: (Uint8Array | null)[] = [null];
  const prefixes: (Uint8Array | null)[] = [];
  for (let i = 0; i < statics.length; i++) {
    let s = statics[i]!;
    const kind = kinds[i];
    let prefix: Uint8Array | null = null;
    if (kind === SLOT_XML_ATTR) {
      prefix = utf8(s.slice(s.length - lengths[i]!));
      s = s.slice(0, s.length - lengths[i]!);
    }
    if (i < kinds.length) prefixes.push(prefix);
    chunks.push(utf8(s));
    // An empty local XML slot also drops the close tag, or the attribute's closing quote.
    const before = kinds[i - 1];
    if (before === SLOT_XML_ELEMENT) afterEmpty.push(utf8(s.slice(lengths[i - 1]!)));
    else if (before === SLOT_XML_ATTR) afterEmpty.push(utf8(s.slice(1)));
    else if (i > 0) afterEmpty.push(null);
  }
  return { statics, chunks, afterEmpty, prefixes, ids, kinds, lengths, names: [] };
}

/** Per template key and substitution index: whether the slot is local (per output context). */
export type Locals = Map<number, readonly boolean[]>;

/** Which template and substitution index each marker number stands for. */
export interface Owner {
  readonly def: TemplateDefinition;
  readonly index: number;
}

/**
 * One char per value: e(mpty), n(umber-like, bare in JSON), s(tring), L(ocal), X (a local
 * nested instance); any other nested instance as `x<key>(…)`; an array of n > 1 items (each
 * may become an element of its own) as `a<n>`, then a char per item unless local. Null when
 * not compilable (other embedded BinXML, or arrays when `arrays` is false).
 */
export function shapeOf(inst: TemplateInstance, locals: Locals | null, arrays = true): string | null {
  shapeLength = 0;
  return collectShape(inst, locals, arrays) ? textOfCodes(shapeCodes, shapeLength) : null;
}

/**
 * Where a shape's characters are collected (the first `shapeLength`): it is made into one string
 * at the end. Appended character by character, each record's shape made a string per character.
 */
const shapeCodes: number[] = [];
let shapeLength = 0;

const put = (c: number): void => {
  shapeCodes[shapeLength++] = c;
};

const code = (c: string): number => c.charCodeAt(0);
const EMPTY = code('e');
const NUMBER = code('n');
const STRING = code('s');
const LOCAL = code('L');
const LOCAL_INSTANCE = code('X');
const INSTANCE = code('x');
const ARRAY = code('a');
const OPEN = code('(');
const CLOSE = code(')');

const valueCode = (x: Value): number => (x.empty ? EMPTY : isJsonScalarType(x.type) ? NUMBER : STRING);

function putDigits(n: number): void {
  const digits = String(n);
  for (let i = 0; i < digits.length; i++) put(digits.charCodeAt(i));
}

/** `shapeOf`'s characters, put in `shapeCodes`; false when not compilable. */
function collectShape(inst: TemplateInstance, locals: Locals | null, arrays: boolean): boolean {
  const local = locals?.get(inst.def.key);
  const subs = inst.substitutions;
  for (let i = 0; i < subs.length; i++) {
    const v = subs[i]!;
    if (Array.isArray(v)) return false;
    const isLocal = local !== undefined && local[i] === true;
    if (isInstance(v)) {
      if (isLocal) {
        put(LOCAL_INSTANCE);
        continue;
      }
      put(INSTANCE);
      putDigits(v.def.key);
      put(OPEN);
      if (!collectShape(v, locals, arrays)) return false;
      put(CLOSE);
      continue;
    }
    const x = v as Value;
    if (x.items !== null) {
      if (!arrays) return false;
      if (x.parts !== null && x.parts.length > 1) {
        put(ARRAY);
        putDigits(x.parts.length);
        if (!isLocal) for (const part of x.parts) put(valueCode(part));
        continue;
      }
    }
    put(isLocal ? LOCAL : valueCode(x));
  }
  return true;
}

/** The first `n` character codes as a string, in slices short enough to pass as arguments anywhere. */
function textOfCodes(codes: readonly number[], n: number): string {
  const SLICE = 8192;
  let s = '';
  for (let i = 0; i < n; i += SLICE) s += String.fromCharCode(...codes.slice(i, Math.min(n, i + SLICE)));
  return s;
}

/** The slot values (leaves, array items, local nested instances) in the order `markerize` numbers them. */
export function leaves(
  inst: TemplateInstance,
  locals: Locals | null,
  out: Substitution[] = [],
): Substitution[] {
  const local = locals?.get(inst.def.key);
  const subs = inst.substitutions;
  for (let i = 0; i < subs.length; i++) {
    const v = subs[i]!;
    if (isInstance(v)) {
      if (local === undefined || local[i] !== true) leaves(v, locals, out);
      else out.push(v);
      continue;
    }
    const parts = (v as Value).parts;
    if (parts !== null && parts.length > 1) for (const part of parts) out.push(part);
    else out.push(v);
  }
  return out;
}

const marker = (opener: string, id: number): string => `${opener}${NONCE}${id}${END}`;

/**
 * Replaces each slot value with a marker, numbering them in order: empty leaves become NULL
 * unless local; `'all'` (a probe) marks every leaf, and every nested instance that may be local.
 */
export function markerize(
  inst: TemplateInstance,
  locals: Locals | 'all' | null,
  owners: Owner[],
): TemplateInstance {
  const probe = locals === 'all';
  const local = probe || locals === null ? undefined : locals.get(inst.def.key);
  const nestable = probe ? subElementNames(inst.def) : undefined;
  const substitutions = inst.substitutions.map((v, i): Substitution => {
    const isLocal = local?.[i] === true;
    if (isInstance(v)) {
      if (!isLocal && nestable?.[i] === undefined) return markerize(v, locals, owners);
      owners.push({ def: inst.def, index: i });
      return { kind: 'value', type: 0x21, text: marker(SUB_OPENER, owners.length - 1), items: null };
    }
    const x = v as Value;
    const keep = probe || isLocal;
    if (x.parts !== null && x.parts.length > 1) {
      const items = x.parts.map((part) => {
        owners.push({ def: inst.def, index: i });
        return part.empty && !keep ? '' : marker('\uE000', owners.length - 1);
      });
      return { kind: 'value', type: x.type, text: items.join(','), items };
    }
    owners.push({ def: inst.def, index: i });
    if (x.empty && !keep) return nullValue;
    // Renderers treat any NULL-typed value as empty, so a kept one is marked as a string.
    const type = x.type === 0 ? 1 : x.type;
    return { kind: 'value', type, text: marker('\uE000', owners.length - 1), items: null };
  });
  return { def: inst.def, substitutions };
}

const SUB_OPENER = String.fromCharCode(MARK_CODE + SLOT_SUB);

/**
 * Per substitution index used once in the definition, as content: the name of the element
 * whose whole content it is, or null when it has siblings (a nested instance there may be
 * local, filled in or spliced among them). Undefined for other uses.
 */
export function subElementNames(def: TemplateDefinition): (string | null | undefined)[] {
  const uses: number[] = [];
  const names: (string | null | undefined)[] = [];
  const walk = (nodes: readonly TemplateNode[], parent: TemplateElement | null, inAttr: boolean): void => {
    for (const n of nodes) {
      if (n.kind === 'subst') {
        uses[n.id] = (uses[n.id] ?? 0) + 1;
        if (!inAttr) names[n.id] = parent !== null && nodes.length === 1 ? parent.name : null;
      }
      if (n.kind !== 'element') continue;
      const e = n as TemplateElement;
      for (const a of e.attrs) walk(a.value, e, true);
      walk(e.children, e, false);
    }
  };
  walk(def.nodes, null, false);
  return names.map((name, i) => (uses[i] === 1 ? name : undefined));
}

const ownerKey = (o: Owner): number => o.def.key;

/** Records, from a probe rendering where every value was a marker, which slots are local. */
export function learnLocals(
  p: Pieces,
  owners: readonly Owner[],
  locals: Locals,
  isLocal: (kind: number) => boolean,
): void {
  const found = new Map<number, (boolean | undefined)[]>();
  for (const o of owners) if (!found.has(ownerKey(o))) found.set(ownerKey(o), []);
  for (let j = 0; j < p.ids.length; j++) {
    const o = owners[p.ids[j]!]!;
    const flags = found.get(ownerKey(o))!;
    flags[o.index] = flags[o.index] !== false && isLocal(p.kinds[j]!);
  }
  for (const [key, flags] of found) {
    if (!locals.has(key))
      locals.set(
        key,
        Array.from(flags, (f) => f === true),
      );
  }
}

/**
 * Whether a compile rendered every slot its shape treats as local, in local positions only
 * (nested instances exactly once).
 */
export function localsHold(
  p: Pieces,
  owners: readonly Owner[],
  locals: Locals,
  isLocal: (kind: number) => boolean,
): boolean {
  const isLocalSlot = (id: number) => {
    const o = owners[id]!;
    return locals.get(ownerKey(o))?.[o.index] === true;
  };
  const seen = new Set<number>();
  for (let j = 0; j < p.ids.length; j++) {
    const id = p.ids[j]!;
    if (!isLocalSlot(id)) continue;
    if (!isLocal(p.kinds[j]!)) return false;
    if (p.kinds[j]! >= SLOT_SUB && seen.has(id)) return false;
    seen.add(id);
  }
  for (let id = 0; id < owners.length; id++) if (isLocalSlot(id) && !seen.has(id)) return false;
  return true;
}

/** Stops treating any slot of the templates in `owners` as local. */
export function forgetLocals(owners: readonly Owner[], locals: Locals): void {
  for (const o of owners) locals.set(ownerKey(o), []);
}
