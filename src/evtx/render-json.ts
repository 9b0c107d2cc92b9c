/**
 * JSON in the shape of the evtx crate's `evtx_dump -o json`: element names as keys,
 * `#attributes`, `#text`, `_N` suffixes for repeated names, EventData/UserData `Data`
 * elements flattened by their `Name`, positional `Data` gathered under `Data.#text`, and
 * bare numbers for a single integer or boolean value.
 */
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

export function renderJson(nodes: readonly XmlNode[], options: JsonRenderOptions = {}): string {
  const r = new JsonWriter(options.timePrecision === '100ns');
  const root = nodes.find((n): n is XmlElement => n.kind === 'element');
  if (root === undefined) return '{}';
  return `{${JSON.stringify(root.name)}:${r.elementValue(root, false)}}`;
}

/** Compiled templates render marker values; a bare-scalar position gets the raw marker opener. */
const MARK_TEXT_CODE = 0xe000;
const rawText = (v: XmlValue): string =>
  v.text.charCodeAt(0) === MARK_TEXT_CODE ? `\uE002${v.text.slice(1)}` : v.text;

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
    if (this.fullPrecision || v.text.charCodeAt(0) === MARK_TEXT_CODE) return v.text;
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

  /** A single integer/boolean value is written bare; everything else as one string. */
  private content(nodes: readonly XmlNode[]): string {
    if (nodes.length === 1) {
      const n = nodes[0]!;
      if (n.kind === 'value' && isJsonScalarType(n.type)) return rawText(n);
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
    if (!elementChild && !attrText) return this.content(e.children);
    return this.body(e, isContainer);
  }

  private dataValue(e: XmlElement): string {
    const elementChild = hasElementChild(e);
    if (!elementChild && !hasText(e.children)) return '""';
    return elementChild ? this.body(e, false) : this.content(e.children);
  }

  private body(e: XmlElement, isContainer: boolean): string {
    const parts: string[] = [];
    const attrs: string[] = [];
    for (const a of e.attrs) {
      if (hasText(a.value)) attrs.push(`${JSON.stringify(a.name)}:${this.content(a.value)}`);
    }
    if (attrs.length > 0) parts.push(`"#attributes":{${attrs.join(',')}}`);
    if (hasText(e.children)) parts.push(`"#text":${this.contentSkippingElements(e.children)}`);

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
    const counts = new Map<string, number>();
    for (const c of e.children) {
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
    return `{${parts.join(',')}}`;
  }

  private positionalArray(e: XmlElement): string {
    const items: string[] = [];
    for (const c of e.children) if (c.kind === 'element' && c.name === 'Data') items.push(this.dataValue(c));
    return `[${items.join(',')}]`;
  }
}
