/**
 * XML text of a record, indented by two spaces; timestamps keep their 100 ns precision.
 * Whatever the log holds, the output is well-formed XML 1.0 (with namespaces): text is
 * escaped by xml-text.ts, names by xml-names.ts.
 */
import {
  isMarker,
  isSubMarker,
  remark,
  SLOT_ATTR,
  SLOT_XML_ATTR,
  SLOT_XML_ELEMENT,
  SLOT_XML_SPLICE,
} from './markers.js';
import type { XmlAttr, XmlElement, XmlNode } from './tree.js';
import { attributeName, distinct, elementName, isDeclarable, isDeclaration, piTarget } from './xml-names.js';
import {
  escapeXmlAttr as escapeAttr,
  escapeXmlText as escapeText,
  escapeXmlPi,
  escapeXmlRaw,
  isXmlChar,
  PREDEFINED_ENTITIES,
} from './xml-text.js';

/** Compiled templates mark attribute positions so their values get attribute escaping. */
const markAttr = (s: string): string => (isMarker(s) ? remark(s, SLOT_ATTR) : escapeAttr(s));

/** A marker that is all of an attribute's or element's content becomes a local slot (markers.ts). */
const soleMarker = (nodes: readonly XmlNode[]): string | null => {
  const only = nodes.length === 1 ? nodes[0]! : null;
  return only?.kind === 'value' && isMarker(only.text) ? only.text : null;
};

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

/**
 * The nodes' XML; with the declaration (the default) it is a document, so content that is not
 * one root element (only a hostile record's) is wrapped in `<Events>` as `tae parse` wraps records.
 */
export function renderXml(nodes: readonly XmlNode[], options: { declaration?: boolean } = {}): string {
  let out = '';
  for (const n of nodes) out += renderNode(n, '');
  return options.declaration === false ? out : xmlDocument(out, isXmlDocument(nodes));
}

export const xmlDocument = (content: string, oneRoot: boolean): string =>
  oneRoot ? XML_DECLARATION + content : `${XML_DECLARATION}<Events>\n${content}</Events>\n`;

/** Whether the nodes make a document alone: one root element, beside it only PIs and blank text. */
export function isXmlDocument(nodes: readonly XmlNode[]): boolean {
  let roots = 0;
  for (const n of nodes) {
    if (n.kind === 'element') roots++;
    else if ((n.kind === 'text' || n.kind === 'value') && !/^[ \t\r\n]*$/.test(n.text)) return false;
    else if (n.kind !== 'pi' && n.kind !== 'text' && n.kind !== 'value') return false;
  }
  return roots === 1;
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
        s += inAttr
          ? escapeAttr(n.text)
          : `<![CDATA[${escapeXmlRaw(n.text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
        break;
      case 'charref':
        // A reference to a character XML forbids is as ill-formed as the character.
        s += isXmlChar(n.code) ? `&#${n.code};` : escapeText(String.fromCharCode(n.code));
        break;
      case 'entityref':
        // Undeclared entities are ill-formed; the flat event also reads them as text.
        if (PREDEFINED_ENTITIES.has(n.name)) s += `&${n.name};`;
        else s += inAttr ? escapeAttr(`&${n.name};`) : escapeText(`&${n.name};`);
        break;
      case 'pi':
        if (!inAttr) s += `<?${piTarget(n.target)}${n.data ? ` ${escapeXmlPi(n.data)}` : ''}?>`;
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
  return renderElement({ kind: 'element', name, attrs: [], children }, pad).slice(
    indent + 1 + elementName(name).length,
  );
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

/** A namespace declaration stays one only when its value is fixed text that may be bound. */
function declares(a: XmlAttr): boolean {
  let value = '';
  for (const n of a.value) {
    if (n.kind !== 'text') return false;
    value += n.text;
  }
  return isDeclarable(a.name, value);
}

/** Whether two attributes have the same name (written names differ when the names in the log do). */
function repeatsName(attrs: readonly XmlAttr[]): boolean {
  for (let i = 1; i < attrs.length; i++) {
    for (let j = 0; j < i; j++) if (attrs[i]!.name === attrs[j]!.name) return true;
  }
  return false;
}

function renderElement(e: XmlElement, indent: string): string {
  const name = elementName(e.name);
  let open = `${indent}<${name}`;
  // Names are decided for every attribute, even one left out when empty, so the compiled
  // templates (which decide when filling) name them the same way.
  const seen = repeatsName(e.attrs) ? new Set<string>() : null;
  for (const a of e.attrs) {
    let attr = attributeName(a.name, isDeclaration(a.name) && declares(a));
    if (seen !== null) attr = distinct(attr, seen);
    const marker = soleMarker(a.value);
    if (marker !== null) {
      open += ` ${attr}="${remark(marker, SLOT_XML_ATTR, attr.length + 3)}"`;
      continue;
    }
    const v = inlineText(a.value, true);
    if (v.length > 0 || a.value.length === 0 || a.value.some((x) => x.kind === 'text'))
      open += ` ${attr}="${v}"`;
  }
  const elementChildren = e.children.some((c) => c.kind === 'element');
  if (!elementChildren) {
    const marker = soleMarker(e.children);
    if (marker !== null && isSubMarker(marker))
      return `${open}${remark(marker, SLOT_XML_ELEMENT, indent.length)}`;
    if (marker !== null) return `${open}${remark(marker, SLOT_XML_ELEMENT, name.length + 3)}</${name}>\n`;
    const text = inlineText(e.children, false);
    return text.length === 0 ? `${open}/>\n` : `${open}>${text}</${name}>\n`;
  }
  let out = `${open}>\n`;
  for (const c of e.children) out += renderNode(c, `${indent}  `);
  return `${out}${indent}</${name}>\n`;
}
