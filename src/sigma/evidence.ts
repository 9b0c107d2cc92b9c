/**
 * `matchEvidence`: what in an event made a rule match, as Hayabusa's "Details" column shows it
 * and more. The fields the rule tests come first (in the rule's order, those its positive
 * selections matched marked, with the matched text's places), then the fields analysts read
 * first (command lines, images, users, addresses, services, scripts). Values are escaped and
 * clipped (evidence-text.ts). Pure: the rule's detection and the event, nothing else.
 *
 * A rule written for Sysmon matches Security 4688 through a derived variant whose detection
 * uses 4688's names (NewProcessName for Image): the evidence reads the variant that accepts
 * the event (the rule set's own, else the rule mapped once here), so it shows the event's
 * own field names. The per-detection plan (compiled value
 * tests, needles to highlight) is made once and kept with the detection.
 */
import { RE2JS } from 're2js';
import { selectNames } from './condition/evaluate.js';
import type { Condition } from './condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from './detection.js';
import { contextOf, type EvalContext, type SigmaEvent, type SigmaValue } from './event.js';
import { type Needle, showValue } from './evidence-text.js';
import { EvtxSigmaEvent } from './evtx-event.js';
import { mapRule } from './logsource/index.js';
import { compileValue, type Test } from './matchers.js';
import type { SigmaRule } from './model.js';
import { applyModifiers, isValueModifier } from './modifiers/index.js';
import { rememberedVariants } from './rule-variants.js';
import { fromYaml, type SigmaType } from './values.js';

export interface EvidenceField {
  /** The event's field name (a 4688 event shows NewProcessName where the rule says Image). */
  readonly name: string;
  /** Escaped and clipped; several values of one field joined with `, `. */
  readonly value: string;
  /** The rule tested this field and one of its positive selections matched it. */
  readonly matched: boolean;
  /** [start, end) places in `value` of the text the rule matched, for highlighting. */
  readonly spans: readonly (readonly [start: number, end: number])[];
}

export interface EvidenceLimits {
  /** Fields listed at most (default 12). */
  readonly maxFields: number;
  /** Characters of one value at most, escapes and `…` included (default 240). */
  readonly maxValueChars: number;
  /** Highlighted places per value at most (default 8). */
  readonly maxSpans: number;
}

export const EVIDENCE_LIMITS: EvidenceLimits = { maxFields: 12, maxValueChars: 240, maxSpans: 8 };

/** Read after the rule's own fields, in this order, when the event has them. */
export const USUAL_EVIDENCE_FIELDS: readonly string[] = [
  'CommandLine',
  'Image',
  'NewProcessName',
  'ParentCommandLine',
  'ParentImage',
  'ParentProcessName',
  'User',
  'SubjectUserName',
  'TargetUserName',
  'TargetDomainName',
  'LogonType',
  'IpAddress',
  'WorkstationName',
  'ServiceName',
  'ImagePath',
  'ServiceFileName',
  'TaskName',
  'ScriptBlockText',
  'Payload',
  'TargetFilename',
  'TargetObject',
  'Details',
  'SourceImage',
  'TargetImage',
  'GrantedAccess',
  'DestinationIp',
  'DestinationPort',
  'QueryName',
  'Threat Name',
  'Path',
  'Process Name',
  'Detection User',
];

/** Which log and event: the match row names them (event id, channel, computer) or adds nothing. */
const SHOWN_ELSEWHERE = new Set(['EventID', 'Channel', 'Computer', 'Provider_Name']);

interface ItemPlan {
  /** `null`: a keyword, matched against any field. */
  readonly field: string | null;
  readonly positive: boolean;
  readonly negated: boolean;
  readonly all: boolean;
  readonly values: readonly { readonly test: Test; readonly needles: readonly Needle[] }[];
}

const plans = new WeakMap<Detection, readonly ItemPlan[]>();
const variantsOf = new WeakMap<
  SigmaRule,
  readonly { accepts(e: SigmaEvent): boolean; detection: Detection }[]
>();

function needlesOf(v: SigmaType): Needle[] {
  switch (v.kind) {
    case 'string': {
      const literals = v.parts.filter((p): p is string => typeof p === 'string' && p !== '');
      const long = literals.filter((p) => p.length > 1);
      return (long.length > 0 ? long : literals).map((text) => ({ kind: 'text', text }));
    }
    case 'number':
      return [{ kind: 'text', text: v.text }];
    case 'bool':
      return [{ kind: 'text', text: String(v.value) }];
    case 'regex': {
      const re = RE2JS.compile(v.pattern, v.flags.i ? RE2JS.CASE_INSENSITIVE : 0);
      return [
        {
          kind: 'find',
          find: (s) => {
            const m = re.matcher(s);
            return m.find() ? [m.start(), m.end()] : undefined;
          },
        },
      ];
    }
    case 'expansion':
      return v.values.flatMap(needlesOf);
    case 'bytes':
    case 'null':
    case 'fieldref':
      return [];
    case 'cidr':
    case 'compare':
    case 'exists':
    case 'timepart':
      return [{ kind: 'whole' }];
  }
}

function planItem(item: DetectionItem, positive: boolean): ItemPlan | undefined {
  try {
    const initial = item.values.map((v) => fromYaml(v) as SigmaType);
    const bare = item.field === null && !item.modifiers.some(isValueModifier);
    const names = bare ? [...item.modifiers, 'contains'] : item.modifiers;
    const modified = applyModifiers(item.field, names, initial, {});
    const values = modified.values.map((v) => ({ test: compileValue(v, item.field), needles: needlesOf(v) }));
    return { field: item.field, positive, negated: modified.negated, all: modified.all, values };
  } catch {
    return undefined; // an `|expand` without placeholder values: the field is listed, not judged
  }
}

/** Identifiers the condition uses under an even number of `not`s (what must hold). */
function positiveNames(condition: Condition, names: readonly string[]): Set<string> {
  const out = new Set<string>();
  const walk = (c: Condition, negated: boolean): void => {
    switch (c.kind) {
      case 'identifier':
        if (!negated) out.add(c.name);
        return;
      case 'not':
        walk(c.arg, !negated);
        return;
      case 'and':
      case 'or':
        for (const a of c.args) walk(a, negated);
        return;
      case 'selector':
        if (!negated) for (const n of selectNames(c.pattern, names)) out.add(n);
        return;
    }
  };
  walk(condition, false);
  return out;
}

function planOf(detection: Detection): readonly ItemPlan[] {
  let plan = plans.get(detection);
  if (plan !== undefined) return plan;
  const positive = positiveNames(detection.condition, [...detection.identifiers.keys()]);
  const items: ItemPlan[] = [];
  const walk = (node: DetectionNode, isPositive: boolean): void => {
    if (node.kind === 'any') for (const n of node.nodes) walk(n, isPositive);
    else
      for (const item of node.items) {
        const p = planItem(item, isPositive);
        if (p !== undefined) items.push(p);
        else if (item.field !== null)
          items.push({ ...item, positive: false, negated: false, all: false, values: [] });
      }
  };
  // Positive selections first, so the fields that made the match lead the list.
  for (const [name, node] of detection.identifiers) if (positive.has(name)) walk(node, true);
  for (const [name, node] of detection.identifiers) if (!positive.has(name)) walk(node, false);
  plan = items;
  plans.set(detection, plan);
  return plan;
}

/** The detection as the event's source sees it (the variant that accepts it), else the rule's. */
function detectionFor(rule: SigmaRule, event: SigmaEvent): Detection {
  let variants = rememberedVariants(rule) ?? variantsOf.get(rule);
  if (variants === undefined) {
    try {
      const mapping = mapRule(rule);
      variants = mapping.ok ? mapping.variants : [];
    } catch {
      variants = []; // a rule that maps nowhere is read in its own field names
    }
    variantsOf.set(rule, variants);
  }
  for (const v of variants) if (v.accepts(event)) return v.detection;
  return rule.detection;
}

const textOf = (v: SigmaValue): string =>
  Array.isArray(v) ? v.filter((x) => x !== null).join(', ') : String(v ?? '');

const blank = (v: SigmaValue | undefined): boolean => {
  const t = v === undefined ? '' : textOf(v).trim();
  return t === '' || t === '-';
};

/** Every field name the event has, where the event can list them (EVTX events can). */
function eventNames(event: SigmaEvent): readonly string[] {
  return event instanceof EvtxSigmaEvent ? Object.keys(event.evtx.data) : [];
}

/** The evidence of one match of `rule` on `event`, in the order described above. */
export function matchEvidence(
  rule: SigmaRule,
  event: SigmaEvent,
  limits: Partial<EvidenceLimits> = {},
): EvidenceField[] {
  const { maxFields, maxValueChars, maxSpans } = { ...EVIDENCE_LIMITS, ...limits };
  const ctx: EvalContext = contextOf(event);
  const order: string[] = [];
  const matched = new Map<string, Needle[]>();
  const keywordNeedles: Needle[] = [];
  const note = (name: string) => {
    if (!order.includes(name) && !SHOWN_ELSEWHERE.has(name) && event.has(name)) order.push(name);
  };
  for (const item of planOf(detectionFor(rule, event))) {
    const passing = item.positive && !item.negated ? item.values.filter((v) => v.test(ctx)) : [];
    const holds = item.all ? passing.length === item.values.length : passing.length > 0;
    const needles = holds ? passing.flatMap((v) => v.needles) : [];
    if (item.field === null) {
      keywordNeedles.push(...needles);
      continue;
    }
    note(item.field);
    if (holds) matched.set(item.field, [...(matched.get(item.field) ?? []), ...needles]);
  }
  if (keywordNeedles.length > 0)
    for (const name of eventNames(event))
      if (
        keywordNeedles.some(
          (n) => n.kind === 'text' && ctx.lowers(name)?.some((s) => s.includes(n.text.toLowerCase())),
        )
      )
        if (!order.includes(name)) {
          order.push(name);
          matched.set(name, keywordNeedles);
        }
  // A usual field the rule does not test is listed only when it says something.
  for (const name of USUAL_EVIDENCE_FIELDS) if (!order.includes(name) && !blank(event.get(name))) note(name);
  // Nothing to go by (a rule on event ids only, a log with its own names): the event's own fields.
  if (order.length === 0) for (const name of eventNames(event)) if (!blank(event.get(name))) note(name);
  return order.slice(0, maxFields).map((name) => {
    const needles = matched.get(name);
    const shown = showValue(textOf(event.get(name) ?? null), needles ?? [], maxValueChars, maxSpans);
    return { name, value: shown.text, matched: needles !== undefined, spans: shown.spans };
  });
}

/** One line, Hayabusa's "Details" style: `Name: value ¦ Name: value`. */
export const evidenceLine = (fields: readonly EvidenceField[]): string =>
  fields.map((f) => `${f.name}: ${f.value}`).join(' ¦ ');
