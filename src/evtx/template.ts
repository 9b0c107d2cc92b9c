/** Template definitions and their instantiation with a record's substitution values. */
import type { Placeholder, TemplateElement, TemplateNode } from './binxml.js';
import type { XmlAttr, XmlNode, XmlValue } from './tree.js';
import { nullValue } from './values.js';

export interface TemplateDefinition {
  readonly offset: number;
  readonly nodes: TemplateNode[];
  /**
   * Identity of the definition's structure across chunks: chunks repeat the same templates
   * at different offsets, and compiled renderers are shared by this key (see compiled.ts).
   */
  readonly key: number;
}

const MAX_TEMPLATE_KEYS = 20_000;
const templateKeys = new Map<string, number>();
let nextTemplateKey = 1;

/**
 * Interns a definition's structure. The fingerprint is the definition's bytes plus the names
 * its offsets resolved to in this chunk, which together determine the tree; a flood of
 * distinct templates resets the table (memory stays bounded).
 */
export function templateKey(fingerprint: string): number {
  let key = templateKeys.get(fingerprint);
  if (key === undefined) {
    if (templateKeys.size >= MAX_TEMPLATE_KEYS) templateKeys.clear();
    key = nextTemplateKey++;
    templateKeys.set(fingerprint, key);
  }
  return key;
}

export interface TemplateInstance {
  readonly def: TemplateDefinition;
  readonly substitutions: Substitution[];
}

/**
 * A decoded substitution: a typed value, an embedded BinXML document that is one template
 * instance (the usual EventData case), or the nodes of any other embedded document.
 */
export type Substitution = XmlValue | TemplateInstance | XmlNode[];

export const isInstance = (v: Substitution): v is TemplateInstance => !Array.isArray(v) && 'def' in v;

export function instantiate(nodes: readonly TemplateNode[], subs: readonly Substitution[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const n of nodes) place(n, subs, out);
  return out;
}

function place(n: TemplateNode, subs: readonly Substitution[], out: XmlNode[]): void {
  if (n.kind === 'subst') {
    const v = substitute(n, subs);
    if (Array.isArray(v)) {
      for (const x of v) out.push(x);
    } else if (isInstance(v)) {
      for (const x of instantiate(v.def.nodes, v.substitutions)) out.push(x);
    } else out.push(v);
    return;
  }
  if (n.kind === 'element') {
    const e = n as TemplateElement;
    if (!e.dynamic) {
      out.push(e as unknown as XmlNode);
      return;
    }
    const only = e.children.length === 1 ? e.children[0] : undefined;
    if (only?.kind === 'subst') {
      const v = substitute(only, subs);
      if (!Array.isArray(v) && !isInstance(v) && v.items !== null && v.items.length > 1) {
        expandArray(e, v, subs, out);
        return;
      }
    }
    const attrs: XmlAttr[] = new Array(e.attrs.length);
    for (let i = 0; i < e.attrs.length; i++) {
      const a = e.attrs[i]!;
      attrs[i] = { name: a.name, value: instantiate(a.value, subs) };
    }
    const children: XmlNode[] = [];
    for (const c of e.children) place(c, subs, children);
    out.push({ kind: 'element', name: e.name, attrs, children });
    return;
  }
  out.push(n);
}

/** An array that is an element's whole content repeats the element once per item, as Windows renders it. */
function expandArray(e: TemplateElement, v: XmlValue, subs: readonly Substitution[], out: XmlNode[]): void {
  const itemType = v.type & 0x7f;
  for (const item of v.items!) {
    const attrs: XmlAttr[] = e.attrs.map((a) => ({ name: a.name, value: instantiate(a.value, subs) }));
    out.push({
      kind: 'element',
      name: e.name,
      attrs,
      children: [{ kind: 'value', type: itemType, text: item, items: null }],
    });
  }
}

function substitute(p: Placeholder, subs: readonly Substitution[]): Substitution {
  return subs[p.id] ?? nullValue;
}
