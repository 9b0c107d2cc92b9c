/**
 * JSON in the shape of the evtx crate's `evtx_dump -o json`: element names as keys,
 * `#attributes`, `#text`, `_N` suffixes for repeated names, EventData/UserData `Data`
 * elements flattened by their `Name`, positional `Data` gathered under `Data.#text`, and
 * bare numbers for a single integer or boolean value.
 */
import {
  isMarker,
  isSubMarker,
  remark,
  SLOT_JSON_DATA,
  SLOT_JSON_NULL,
  SLOT_JSON_SPLICE,
  SLOT_RAW,
  spliceContext,
} from './markers.js';
import { toMicrosecondText } from './time.js';
import { isJsonScalarType, VALUE_TYPE as T, type XmlElement, type XmlNode, type XmlValue } from './tree.js';

const MAX_TRACKED_NAMES = 64;

/** The five predefined XML entities are resolved; any other reference stays as written. */
const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** JSON.stringify, with control characters escaped as `\u001F` (upper case) the way the crate writes them. */
export function jsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  const q = JSON.stringify(s);
  if (!q.includes('\\u00')) return q;
  return q.replace(/\\(\\|u00[0-9a-f]{2})/g, (m, g: string) =>
    g === '\\' ? m : `\\${g.toUpperCase().replace('U', 'u')}`,
  );
}

export interface JsonRenderOptions {
  /** `crate` (default) writes microseconds like evtx_dump; `100ns` keeps full FILETIME precision. */
  readonly timePrecision?: 'crate' | '100ns';
}

/** The JSON value of an element made of `children` in a given position (see markers.ts). */
export function renderJsonValue(
  children: XmlNode[],
  position: 'element' | 'container' | 'data',
  options: JsonRenderOptions = {},
): string {
  const w = new JsonWriter(options.timePrecision === '100ns');
  const e: XmlElement = { kind: 'element', name: '', attrs: [], children };
  return position === 'data' ? w.dataValue(e) : w.elementValue(e, position === 'container');
}

const isSubValue = (n: XmlNode): boolean => n.kind === 'value' && isSubMarker(n.text);

/**
 * Where a nested instance's marker sits among element siblings of a non-container, when it
 * can be spliced: its elements then just add parts to the body, after at least one other part
 * (so its commas are its own), with names distinct from its siblings' (so `_N` suffixes and
 * the tracked-name limit work out the same). Its other nodes must carry no text (checked
 * when the nested template is compiled). -1 otherwise.
 */
function spliceAt(e: XmlElement, hasAttrs: boolean): number {
  let at = -1;
  let partBefore = hasAttrs;
  for (let i = 0; i < e.children.length; i++) {
    const c = e.children[i]!;
    if (isSubValue(c)) {
      if (at >= 0) return -1;
      at = i;
    } else if (hasText([c]) || (at < 0 && c.kind === 'element')) partBefore = true;
  }
  return partBefore ? at : -1;
}

function spliceMarker(v: XmlValue, siblings: readonly XmlNode[]): string {
  const names: string[] = [];
  for (const c of siblings) if (c.kind === 'element' && !names.includes(c.name)) names.push(c.name);
  const context = spliceContext(names);
  return context < 0 ? v.text : remark(v.text, SLOT_JSON_SPLICE, context);
}

/** The parts of a nested instance spliced among siblings, or null when it cannot be (see `spliceAt`). */
export function renderJsonSplice(
  nodes: readonly XmlNode[],
  siblings: readonly string[],
  options: JsonRenderOptions = {},
): string | null {
  return new JsonWriter(options.timePrecision === '100ns').spliceParts(nodes, siblings);
}

export function renderJson(nodes: readonly XmlNode[], options: JsonRenderOptions = {}): string {
  const r = new JsonWriter(options.timePrecision === '100ns');
  const root = nodes.find((n): n is XmlElement => n.kind === 'element');
  if (root === undefined) return '{}';
  return `{${JSON.stringify(root.name)}:${r.elementValue(root, false)}}`;
}

/** Compiled templates render marker values (see markers.ts); a bare-scalar position gets a raw slot. */
const rawText = (v: XmlValue): string => (isMarker(v.text) ? remark(v.text, SLOT_RAW) : v.text);

function isEmptyValue(v: XmlValue): boolean {
  return v.type === T.NULL || v.text.length === 0;
}

function hasText(nodes: readonly XmlNode[]): boolean {
  for (const n of nodes) {
    switch (n.kind) {
      case 'text':
      case 'cdata':
        if (n.text.length > 0) return true;
        break;
      case 'value':
        if (!isEmptyValue(n)) return true;
        break;
      case 'charref':
      case 'entityref':
        return true;
      default:
    }
  }
  return false;
}

function hasElementChild(e: XmlElement): boolean {
  for (const c of e.children) if (c.kind === 'element') return true;
  return false;
}

function nameAttr(e: XmlElement): readonly XmlNode[] | undefined {
  for (const a of e.attrs) if (a.name === 'Name') return a.value;
  return undefined;
}

class JsonWriter {
  constructor(private readonly fullPrecision: boolean) {}

  private valueText(v: XmlValue): string {
    if (this.fullPrecision || isMarker(v.text)) return v.text;
    const base = v.type & 0x7f;
    if (base !== T.FILETIME && base !== T.SYSTEMTIME) return v.text;
    if (v.items === null) return v.text.length > 0 ? toMicrosecondText(v.text) : v.text;
    return v.items.map(toMicrosecondText).join(',');
  }

  private text(nodes: readonly XmlNode[]): string {
    let s = '';
    for (const n of nodes) {
      switch (n.kind) {
        case 'text':
        case 'cdata':
          s += n.text;
          break;
        case 'value':
          s += this.valueText(n);
          break;
        case 'charref':
          s += `&#${n.code};`;
          break;
        case 'entityref':
          s += XML_ENTITIES[n.name] ?? `&${n.name};`;
          break;
        default:
      }
    }
    return s;
  }

  /**
   * A single integer/boolean value is written bare; everything else as one string. A marker
   * that is an element's whole value becomes a `local` slot, which decides this when filled.
   */
  private content(nodes: readonly XmlNode[], local = 0, container = false): string {
    if (nodes.length === 1) {
      const n = nodes[0]!;
      if (n.kind === 'value') {
        if (local !== 0 && isMarker(n.text)) return remark(n.text, local, container ? 1 : 0);
        if (isJsonScalarType(n.type)) return rawText(n);
      }
    }
    return jsonString(this.text(nodes));
  }

  private contentSkippingElements(nodes: readonly XmlNode[]): string {
    let single: XmlValue | null = null;
    let numeric = true;
    for (const n of nodes) {
      if (n.kind === 'element' || n.kind === 'pi') continue;
      if (n.kind === 'text' || n.kind === 'cdata') {
        if (n.text.length > 0) numeric = false;
      } else if (n.kind === 'value') {
        if (isEmptyValue(n)) continue;
        if (single !== null) numeric = false;
        single = n;
      } else numeric = false;
    }
    if (numeric && single !== null && isJsonScalarType(single.type)) return rawText(single);
    return jsonString(this.text(nodes));
  }

  elementValue(e: XmlElement, isContainer: boolean): string {
    const text = hasText(e.children);
    const attrText = e.attrs.some((a) => hasText(a.value));
    const elementChild = hasElementChild(e);
    if (!elementChild && !text && !attrText) return 'null';
    if (!elementChild && !attrText) return this.content(e.children, SLOT_JSON_NULL, isContainer);
    return this.body(e, isContainer);
  }

  dataValue(e: XmlElement): string {
    const elementChild = hasElementChild(e);
    if (!elementChild && !hasText(e.children)) return '""';
    if (elementChild) return this.body(e, false);
    // A nested instance's value here would include these attributes: not a local slot.
    const sub = e.attrs.length > 0 && e.children.length === 1 && isSubValue(e.children[0]!);
    return this.content(e.children, sub ? 0 : SLOT_JSON_DATA);
  }

  private body(e: XmlElement, isContainer: boolean): string {
    const parts: string[] = [];
    const attrs: string[] = [];
    for (const a of e.attrs) {
      if (hasText(a.value)) attrs.push(`${JSON.stringify(a.name)}:${this.content(a.value)}`);
    }
    if (attrs.length > 0) parts.push(`"#attributes":{${attrs.join(',')}}`);
    const splice = isContainer ? -1 : spliceAt(e, attrs.length > 0);
    const own = splice < 0 ? e.children : e.children.filter((_, i) => i !== splice);
    if (hasText(own)) parts.push(`"#text":${this.contentSkippingElements(own)}`);

    let flatten = false;
    let positional = 0;
    if (isContainer) {
      for (const c of e.children) {
        if (c.kind !== 'element' || c.name !== 'Data') continue;
        positional++;
        const name = nameAttr(c);
        if (name !== undefined && hasText(name)) flatten = true;
      }
    }
    let positionalDone = false;
    let splicePart = -1;
    const counts = new Map<string, number>();
    for (let i = 0; i < e.children.length; i++) {
      const c = e.children[i]!;
      if (i === splice) {
        splicePart = parts.length;
        parts.push(spliceMarker(c as XmlValue, own));
        continue;
      }
      if (c.kind !== 'element') continue;
      if (isContainer && c.name === 'Data') {
        if (flatten) {
          const name = nameAttr(c);
          if (name === undefined || !hasText(name)) continue;
          parts.push(`${jsonString(this.text(name))}:${this.dataValue(c)}`);
        } else if (!positionalDone) {
          positionalDone = true;
          parts.push(`"Data":{"#text":${positional === 1 ? this.dataValue(c) : this.positionalArray(e)}}`);
        }
        continue;
      }
      let key = c.name;
      const seen = counts.get(c.name);
      if (seen !== undefined) {
        if (seen > 0) key = `${c.name}_${seen}`;
        counts.set(c.name, seen + 1);
      } else if (counts.size < MAX_TRACKED_NAMES) counts.set(c.name, 1);
      parts.push(
        `${JSON.stringify(key)}:${this.elementValue(c, c.name === 'EventData' || c.name === 'UserData')}`,
      );
    }
    // A splice slot writes its own leading commas (it may write no parts at all).
    let out = parts[0] ?? '';
    for (let i = 1; i < parts.length; i++) out += i === splicePart ? parts[i] : `,${parts[i]}`;
    return `{${out}}`;
  }

  /** The parts a nested instance spliced among other children adds (see `spliceAt`), each after a comma. */
  spliceParts(nodes: readonly XmlNode[], siblings: readonly string[]): string | null {
    const taken = new Set(siblings);
    const counts = new Map<string, number>();
    let out = '';
    for (const c of nodes) {
      if (c.kind === 'pi') continue;
      if (c.kind !== 'element') {
        if (hasText([c])) return null;
        continue;
      }
      if (taken.has(c.name)) return null;
      let key = c.name;
      const seen = counts.get(c.name);
      if (seen !== undefined) {
        if (seen > 0) key = `${c.name}_${seen}`;
        counts.set(c.name, seen + 1);
      } else if (taken.size + counts.size < MAX_TRACKED_NAMES) counts.set(c.name, 1);
      else return null;
      out += `,${JSON.stringify(key)}:${this.elementValue(c, c.name === 'EventData' || c.name === 'UserData')}`;
    }
    return out;
  }

  private positionalArray(e: XmlElement): string {
    const items: string[] = [];
    for (const c of e.children) if (c.kind === 'element' && c.name === 'Data') items.push(this.dataValue(c));
    return `[${items.join(',')}]`;
  }
}
