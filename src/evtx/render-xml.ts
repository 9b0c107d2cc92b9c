/** XML text of a record, indented by two spaces; timestamps keep their 100 ns precision. */
import {
  isMarker,
  isSubMarker,
  remark,
  SLOT_ATTR,
  SLOT_XML_ATTR,
  SLOT_XML_ELEMENT,
  SLOT_XML_SPLICE,
} from './markers.js';
import type { XmlElement, XmlNode } from './tree.js';

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};
export const escapeXmlText = (s: string): string =>
  /[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => XML_ESCAPES[c]!) : s;
export const escapeXmlAttr = (s: string): string =>
  /[&<>"]/.test(s) ? s.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!) : s;
const escapeText = escapeXmlText;
const escapeAttr = escapeXmlAttr;
/** Compiled templates mark attribute positions so their values get attribute escaping. */
const markAttr = (s: string): string => (isMarker(s) ? remark(s, SLOT_ATTR) : escapeAttr(s));

/** A marker that is all of an attribute's or element's content becomes a local slot (markers.ts). */
const soleMarker = (nodes: readonly XmlNode[]): string | null => {
  const only = nodes.length === 1 ? nodes[0]! : null;
  return only?.kind === 'value' && isMarker(only.text) ? only.text : null;
};

export function renderXml(nodes: readonly XmlNode[], options: { declaration?: boolean } = {}): string {
  let out = options.declaration === false ? '' : '<?xml version="1.0" encoding="utf-8"?>\n';
  for (const n of nodes) out += renderNode(n, '');
  return out;
}

function inlineText(nodes: readonly XmlNode[], inAttr: boolean): string {
  let s = '';
  for (const n of nodes) {
    switch (n.kind) {
      case 'text':
        s += inAttr ? escapeAttr(n.text) : escapeText(n.text);
        break;
      case 'value':
        s += inAttr ? markAttr(n.text) : escapeText(n.text);
        break;
      case 'cdata':
        s += inAttr ? escapeAttr(n.text) : `<![CDATA[${n.text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
        break;
      case 'charref':
        s += `&#${n.code};`;
        break;
      case 'entityref':
        s += `&${n.name};`;
        break;
      case 'pi':
        if (!inAttr) s += `<?${n.target}${n.data ? ` ${n.data}` : ''}?>`;
        break;
      case 'element':
        break;
      default:
        n satisfies never;
    }
  }
  return s;
}

/** Nodes spliced among element siblings at `indent` (see markers.ts). */
export function renderXmlNodes(nodes: readonly XmlNode[], indent: number): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const n of nodes) out += renderNode(n, pad);
  return out;
}

/** An element's XML after `<name` (compiled nested templates fill it in, see markers.ts). */
export function renderXmlElementRest(name: string, children: XmlNode[], indent: number): string {
  const pad = ' '.repeat(indent);
  return renderElement({ kind: 'element', name, attrs: [], children }, pad).slice(indent + 1 + name.length);
}

function renderNode(n: XmlNode, indent: string): string {
  if (n.kind !== 'element') {
    // A nested instance among element siblings: its nodes render on their own (see markers.ts).
    if (n.kind === 'value' && isSubMarker(n.text)) return remark(n.text, SLOT_XML_SPLICE, indent.length);
    const t = inlineText([n], false);
    return t ? `${indent}${t}\n` : '';
  }
  return renderElement(n, indent);
}

function renderElement(e: XmlElement, indent: string): string {
  let open = `${indent}<${e.name}`;
  for (const a of e.attrs) {
    const marker = soleMarker(a.value);
    if (marker !== null) {
      open += ` ${a.name}="${remark(marker, SLOT_XML_ATTR, a.name.length + 3)}"`;
      continue;
    }
    const v = inlineText(a.value, true);
    if (v.length > 0 || a.value.length === 0 || a.value.some((x) => x.kind === 'text'))
      open += ` ${a.name}="${v}"`;
  }
  const elementChildren = e.children.some((c) => c.kind === 'element');
  if (!elementChildren) {
    const marker = soleMarker(e.children);
    if (marker !== null && isSubMarker(marker))
      return `${open}${remark(marker, SLOT_XML_ELEMENT, indent.length)}`;
    if (marker !== null) return `${open}${remark(marker, SLOT_XML_ELEMENT, e.name.length + 3)}</${e.name}>\n`;
    const text = inlineText(e.children, false);
    return text.length === 0 ? `${open}/>\n` : `${open}>${text}</${e.name}>\n`;
  }
  let out = `${open}>\n`;
  for (const c of e.children) out += renderNode(c, `${indent}  `);
  return `${out}${indent}</${e.name}>\n`;
}
