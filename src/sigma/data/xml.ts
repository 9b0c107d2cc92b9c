/**
 * Event-log XML (one `<Event>`, several, or an `<Events>` wrapper) into the decoder's own node
 * tree, so XML input yields exactly the flat event an EVTX record would. fast-xml-parser's
 * defaults are lossy, so every option that keeps text as written is set.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { XmlElement, XmlNode } from '../../evtx/index.js';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
});

type Ordered = Record<string, unknown>;

function toNodes(items: readonly Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (key === ':@') continue;
      if (key === '#text') out.push({ kind: 'text', text: String(value) });
      else if (key === '#cdata')
        out.push({
          kind: 'cdata',
          text: toNodes(value as Ordered[])
            .map(textOf)
            .join(''),
        });
      else {
        const attrs = Object.entries((item[':@'] ?? {}) as Record<string, unknown>).map(([name, v]) => ({
          name,
          value: [{ kind: 'text', text: String(v) } as XmlNode],
        }));
        out.push({ kind: 'element', name: key, attrs, children: toNodes(value as Ordered[]) });
      }
    }
  }
  return out;
}

const textOf = (n: XmlNode): string => (n.kind === 'text' || n.kind === 'cdata' ? n.text : '');

/** The `Event` elements of the document, at the top level or inside any wrapper. */
function events(nodes: readonly XmlNode[], out: XmlElement[] = []): XmlElement[] {
  for (const n of nodes) {
    if (n.kind !== 'element') continue;
    if (n.name === 'Event') out.push(n);
    else events(n.children, out);
  }
  return out;
}

/** `undefined` when the text is not well-formed XML (or carries a DOCTYPE, which events never do). */
export function xmlEvents(text: string): XmlElement[] | undefined {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
  if (/<!DOCTYPE/i.test(body)) return undefined;
  if (XMLValidator.validate(`<tae-root>${body}</tae-root>`) !== true) return undefined;
  try {
    return events(toNodes(parser.parse(body) as Ordered[]));
  } catch {
    return undefined;
  }
}
