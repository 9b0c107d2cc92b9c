/**
 * The flat event model from compiled templates: each (template, shape) is turned into an
 * event once with marker values (see markers.ts), leaving per field either fixed text or
 * pieces to fill with the record's values. Arrays and embedded BinXML take the tree path.
 * A numeric System field that is one integer value (and TimeCreated as one FILETIME) is read
 * from the value itself, not formatted as text and parsed back: the numbers are the same.
 */
import { type EvtxEvent, eventText, num, parseTimestamp } from './event.js';
import { hasMarker, leaves, markerize, type Pieces, shapeOf, split } from './markers.js';
import { instantiate, type TemplateInstance } from './template.js';
import type { XmlValue } from './tree.js';
import { filetimeMsOf, integerOf } from './values.js';

/** Fixed text, the number of the one value that is the whole text, pieces to fill, or none. */
type TextRecipe = string | number | Pieces | null;

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

function recipeOf(s: string | null): TextRecipe {
  if (s === null || !hasMarker(s)) return s;
  const p = split(s);
  // Most fields are one value: its text is the field's, with nothing to join.
  return p.ids.length === 1 && p.statics.every((x) => x === '') ? p.ids[0]! : p;
}

function compileEvent(inst: TemplateInstance): EventRecipe | null {
  const m = markerize(inst, null, []);
  const t = eventText(instantiate(m.def.nodes, m.substitutions));
  const data: [string, TextRecipe][] = [];
  for (const [k, v] of Object.entries(t.data)) {
    if (hasMarker(k) || typeof v !== 'string') return null;
    data.push([k, recipeOf(v)]);
  }
  if (t.userDataName !== null && hasMarker(t.userDataName)) return null;
  const fields = FIELDS.map((k) => recipeOf(t[k]));
  return {
    fields,
    data,
    unnamedData: t.unnamedData.map(recipeOf),
    userDataName: t.userDataName,
  };
}

function fill(r: TextRecipe, values: readonly XmlValue[]): string | null {
  if (typeof r === 'number') return values[r]!.text;
  if (r === null || typeof r === 'string') return r;
  let s = r.statics[0]!;
  for (let i = 0; i < r.ids.length; i++) s += values[r.ids[i]!]!.text + r.statics[i + 1]!;
  return s;
}

/** A numeric field's number: from its one integer value when it is that, else from its text. */
function numberOf(r: EventRecipe, k: number, values: readonly XmlValue[]): number | null {
  const f = r.fields[k]!;
  if (typeof f === 'number') {
    const n = integerOf(values[f]!);
    if (n !== undefined) return n;
  }
  return num(fill(f, values));
}

/** The record's flat event (as `finishEvent(eventText(…))` makes it), or null when its shape does not compile. */
export function compiledEvent(inst: TemplateInstance, headerRecordId: number): EvtxEvent | null {
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
  const timestampText = fill(f[1]!, v) ?? '';
  const time = typeof f[1] === 'number' ? filetimeMsOf(v[f[1]]!) : undefined;
  // One literal, so every event has the same hidden class.
  return {
    recordId: numberOf(r, 0, v) ?? headerRecordId,
    timestamp: time ?? parseTimestamp(timestampText || null),
    timestampText,
    eventId: numberOf(r, 2, v) ?? -1,
    qualifiers: numberOf(r, 3, v),
    version: numberOf(r, 4, v),
    level: numberOf(r, 5, v),
    task: numberOf(r, 6, v),
    opcode: numberOf(r, 7, v),
    keywords: fill(f[8]!, v),
    provider: fill(f[9]!, v) ?? '',
    providerGuid: fill(f[10]!, v),
    channel: fill(f[11]!, v) ?? '',
    computer: fill(f[12]!, v) ?? '',
    userSid: fill(f[13]!, v),
    processId: numberOf(r, 14, v),
    threadId: numberOf(r, 15, v),
    data,
    unnamedData,
    userDataName: r.userDataName,
  };
}
