/** XML text of a record, indented by two spaces; timestamps keep their 100 ns precision. */
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
const markAttr = (s: string): string => (s.charCodeAt(0) === 0xe000 ? `\uE003${s.slice(1)}` : escapeAttr(s));

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

function renderNode(n: XmlNode, indent: string): string {
  if (n.kind !== 'element') {
    const t = inlineText([n], false);
    return t ? `${indent}${t}\n` : '';
  }
  return renderElement(n, indent);
}

function renderElement(e: XmlElement, indent: string): string {
  let open = `${indent}<${e.name}`;
  for (const a of e.attrs) {
    const v = inlineText(a.value, true);
    if (v.length > 0 || a.value.length === 0 || a.value.some((x) => x.kind === 'text'))
      open += ` ${a.name}="${v}"`;
  }
  const elementChildren = e.children.some((c) => c.kind === 'element');
  if (!elementChildren) {
    const text = inlineText(e.children, false);
    return text.length === 0 ? `${open}/>\n` : `${open}>${text}</${e.name}>\n`;
  }
  let out = `${open}>\n`;
  for (const c of e.children) out += renderNode(c, `${indent}  `);
  return `${out}${indent}</${e.name}>\n`;
}
