/**
 * The flat event model from compiled templates: each (template, shape) is turned into an
 * event once with marker values (see markers.ts), leaving per field either fixed text or
 * pieces to fill with the record's values. Arrays and embedded BinXML take the tree path.
 */
import { type EventText, eventText } from './event.js';
import { hasMarker, leaves, markerize, type Pieces, shapeOf, split } from './markers.js';
import { instantiate, type TemplateInstance } from './template.js';
import type { XmlValue } from './tree.js';

type TextRecipe = string | Pieces | null;

/** EventText's text fields, in the order recipes hold them. */
const FIELDS = [
  'recordId',
  'timeCreated',
  'eventId',
  'qualifiers',
  'version',
  'level',
  'task',
  'opcode',
  'keywords',
  'provider',
  'providerGuid',
  'channel',
  'computer',
  'userSid',
  'processId',
  'threadId',
] as const;

interface EventRecipe {
  readonly fields: TextRecipe[];
  readonly data: [string, TextRecipe][];
  readonly unnamedData: TextRecipe[];
  readonly userDataName: string | null;
}

/** Recipes by template key and shape, shared by every chunk; bounded like the keys. */
const MAX_RECIPES = 50_000;
const recipes = new Map<string, EventRecipe | null>();

const recipeOf = (s: string | null): TextRecipe => (s === null || !hasMarker(s) ? s : split(s));

function compileEvent(inst: TemplateInstance): EventRecipe | null {
  const m = markerize(inst, null, []);
  const t = eventText(instantiate(m.def.nodes, m.substitutions));
  const data: [string, TextRecipe][] = [];
  for (const [k, v] of Object.entries(t.data)) {
    if (hasMarker(k) || typeof v !== 'string') return null;
    data.push([k, recipeOf(v)]);
  }
  if (t.userDataName !== null && hasMarker(t.userDataName)) return null;
  return {
    fields: FIELDS.map((k) => recipeOf(t[k])),
    data,
    unnamedData: t.unnamedData.map(recipeOf),
    userDataName: t.userDataName,
  };
}

function fill(r: TextRecipe, values: readonly XmlValue[]): string | null {
  if (r === null || typeof r === 'string') return r;
  let s = r.statics[0]!;
  for (let i = 0; i < r.ids.length; i++) s += values[r.ids[i]!]!.text + r.statics[i + 1]!;
  return s;
}

export function compiledEventText(inst: TemplateInstance): EventText | null {
  const shape = shapeOf(inst, null, false);
  if (shape === null) return null;
  const id = `${inst.def.key}:${shape}`;
  let r = recipes.get(id);
  if (r === undefined) {
    if (recipes.size >= MAX_RECIPES) recipes.clear();
    r = compileEvent(inst);
    recipes.set(id, r);
  }
  if (r === null) return null;
  const v = leaves(inst, null) as XmlValue[];
  const f = r.fields;
  const data: Record<string, string> = {};
  for (const [k, x] of r.data) data[k] = fill(x, v) ?? '';
  const unnamedData: string[] = [];
  for (const x of r.unnamedData) unnamedData.push(fill(x, v) ?? '');
  // One literal, so every event has the same hidden class.
  return {
    recordId: fill(f[0]!, v),
    timeCreated: fill(f[1]!, v),
    eventId: fill(f[2]!, v),
    qualifiers: fill(f[3]!, v),
    version: fill(f[4]!, v),
    level: fill(f[5]!, v),
    task: fill(f[6]!, v),
    opcode: fill(f[7]!, v),
    keywords: fill(f[8]!, v),
    provider: fill(f[9]!, v),
    providerGuid: fill(f[10]!, v),
    channel: fill(f[11]!, v),
    computer: fill(f[12]!, v),
    userSid: fill(f[13]!, v),
    processId: fill(f[14]!, v),
    threadId: fill(f[15]!, v),
    data,
    unnamedData,
    userDataName: r.userDataName,
  };
}
