/**
 * Event-log XML (one `<Event>`, several, or an `<Events>` wrapper) into the decoder's own node
 * tree, so XML input yields exactly the flat event an EVTX record would. fast-xml-parser's
 * defaults are lossy, so every option that keeps text as written is set.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { XmlElement, XmlNode } from '../../evtx/index.js';
import { MAX_DATA_DEPTH } from '../limits.js';

const parser = new XMLParser({
  preserveOrder: true,
  /** The parser's own bound, so the tree every walk below receives is no deeper. */
  maxNestedTags: MAX_DATA_DEPTH,
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

export type XmlEvents =
  | { readonly ok: true; readonly events: XmlElement[] }
  | { readonly ok: false; readonly why: string };

/**
 * The document's events, or why not: not well-formed, a DOCTYPE (events never carry one), or
 * elements nested deeper than MAX_DATA_DEPTH.
 */
export function xmlEvents(text: string): XmlEvents {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '');
  if (/<!DOCTYPE/i.test(body)) return { ok: false, why: 'XML with a DOCTYPE' };
  if (XMLValidator.validate(`<tae-root>${body}</tae-root>`) !== true)
    return { ok: false, why: 'XML that is not well-formed' };
  let tree: Ordered[];
  try {
    tree = parser.parse(body) as Ordered[];
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/nested/i.test(message)) return { ok: false, why: `XML nested deeper than ${MAX_DATA_DEPTH} levels` };
    return { ok: false, why: `XML the parser refuses: ${message}` };
  }
  return { ok: true, events: events(toNodes(tree)) };
}
