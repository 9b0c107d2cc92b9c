/**
 * An event in the evtx crate's JSON shape (`{"Event": {"System": …, "EventData": …}}`, with
 * `#attributes`/`#text` or the `_attributes` variant) back into the decoder's node tree, so it
 * resolves to the same flat event as the EVTX record it was dumped from.
 */
import type { XmlAttr, XmlElement, XmlNode } from '../../evtx/index.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const scalarText = (v: Json): string =>
  v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function content(v: Json): XmlNode[] {
  if (v === null) return [];
  if (Array.isArray(v)) {
    const items = v.map(scalarText);
    return [{ kind: 'value', type: 0x81, text: items.join(','), items }];
  }
  return [{ kind: 'text', text: scalarText(v) }];
}

function attrsOf(v: Json | undefined): XmlAttr[] {
  if (!isObject(v)) return [];
  return Object.entries(v).map(([name, a]) => ({ name, value: content(a) }));
}

function element(name: string, v: Json, extraAttrs: Json | undefined): XmlElement {
  const attrs = attrsOf(extraAttrs);
  if (!isObject(v)) return { kind: 'element', name, attrs, children: content(v) };
  attrs.push(...attrsOf(v['#attributes']));
  const children: XmlNode[] = [];
  for (const [k, child] of Object.entries(v)) {
    if (k === '#attributes' || k.endsWith('_attributes')) continue;
    if (k === '#text') children.push(...content(child));
    else children.push(...elements(k, child, v[`${k}_attributes`]));
  }
  return { kind: 'element', name, attrs, children };
}

/** A key whose value is a list of objects stands for repeated elements. */
function elements(name: string, v: Json, extraAttrs: Json | undefined): XmlElement[] {
  if (Array.isArray(v) && v.some(isObject)) return v.map((e) => element(name, e, undefined));
  return [element(name, v, extraAttrs)];
}

/** EventData's keys are `Data Name=` fields, except `Data` itself: the unnamed values. */
function eventData(v: Json): XmlElement {
  const children: XmlNode[] = [];
  if (isObject(v)) {
    for (const [k, field] of Object.entries(v)) {
      if (k === '#attributes') continue;
      if (k === 'Data') {
        const inner = isObject(field) && '#text' in field ? field['#text']! : field;
        for (const item of Array.isArray(inner) ? inner : [inner])
          children.push({ kind: 'element', name: 'Data', attrs: [], children: content(item) });
      } else {
        const attr: XmlAttr = { name: 'Name', value: [{ kind: 'text', text: k }] };
        children.push({ kind: 'element', name: 'Data', attrs: [attr], children: content(field) });
      }
    }
  }
  return { kind: 'element', name: 'EventData', attrs: [], children };
}

/** Whether the object looks like the crate's event JSON. */
export const isEventJson = (v: unknown): v is { Event: Record<string, Json> } =>
  isObject(v) && isObject(v.Event) && isObject(v.Event.System);

export function eventJsonToNodes(v: { Event: Record<string, Json> }): XmlNode[] {
  const children: XmlNode[] = [];
  for (const [k, part] of Object.entries(v.Event)) {
    if (k === '#attributes' || k.endsWith('_attributes')) continue;
    children.push(k === 'EventData' ? eventData(part) : element(k, part, v.Event[`${k}_attributes`]));
  }
  return [{ kind: 'element', name: 'Event', attrs: [], children }];
}
