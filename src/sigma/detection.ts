/**
 * The `detection` section: parsed into a plain model (kept on the rule, so a later logsource
 * mapping can rename fields and recompile, and variants can be rendered back), then compiled
 * into closures.
 */
import { bindCondition, type Predicate } from './condition/evaluate.js';
import { type Condition, parseCondition } from './condition/parse.js';
import { fail } from './diagnostics.js';
import type { EvalContext } from './event.js';
import { allTests, anyTest, compileValue, type Test } from './matchers.js';
import { applyModifiers, isValueModifier, type PlaceholderValues } from './modifiers/index.js';
import { fromYaml, type SigmaType } from './values.js';
import {
  isYamlList,
  isYamlMap,
  isYamlScalar,
  type YamlMap,
  type YamlScalar,
  type YamlValue,
} from './yaml.js';

export interface DetectionItem {
  /** `null` for a keyword item (a list of values, or a `'|all'`-style field-less key). */
  readonly field: string | null;
  readonly modifiers: readonly string[];
  /** As written; an empty list in the rule is stored as `[null]` (pySigma's reading). */
  readonly values: readonly YamlScalar[];
}

export type DetectionNode =
  /** A map: every item must match. */
  | { readonly kind: 'all'; readonly items: readonly DetectionItem[] }
  /** A list (of maps, or of keywords): any member may match. */
  | { readonly kind: 'any'; readonly nodes: readonly DetectionNode[] };

export interface Detection {
  readonly identifiers: ReadonlyMap<string, DetectionNode>;
  /** The condition(s) as written; several are OR'ed. */
  readonly conditions: readonly string[];
  readonly condition: Condition;
}

const NO_MODIFIERS: readonly string[] = Object.freeze([]);

function parseItem(key: string, value: YamlValue): DetectionItem {
  // Split by hand: a rest pattern made an iterator and two arrays for each of 10,000 items.
  const bar = key.indexOf('|');
  const field = bar < 0 ? key : key.slice(0, bar);
  const modifiers = bar < 0 ? NO_MODIFIERS : key.slice(bar + 1).split('|');
  let values: readonly YamlScalar[];
  if (isYamlList(value)) {
    if (!value.every(isYamlScalar))
      fail('value.invalid_type', `the values of '${key}' must be scalars, not maps or lists`);
    // The parsed list itself (both are read-only): a SigmaHQ load has 10,000 of them.
    values = value.length === 0 ? [null] : (value as readonly YamlScalar[]);
  } else if (isYamlScalar(value)) values = [value];
  else fail('value.invalid_type', `the value of '${key}' must be a scalar or a list of scalars, not a map`);
  return { field: field === '' ? null : field, modifiers, values };
}

function parseNode(name: string, def: YamlValue): DetectionNode {
  if (isYamlMap(def)) {
    if (def.size === 0) fail('detection.invalid', `search identifier '${name}' is an empty map`);
    const items: DetectionItem[] = [];
    def.forEach((v, k) => {
      items.push(parseItem(k, v));
    });
    return { kind: 'all', items };
  }
  if (isYamlList(def)) {
    if (def.length === 0) fail('detection.invalid', `search identifier '${name}' is an empty list`);
    const keywords = def.filter(isYamlScalar);
    const nodes = def.filter((d) => !isYamlScalar(d)).map((d) => parseNode(name, d));
    if (keywords.length > 0)
      nodes.unshift({ kind: 'all', items: [{ field: null, modifiers: [], values: keywords }] });
    return nodes.length === 1 ? nodes[0]! : { kind: 'any', nodes };
  }
  if (def === null || def === '') fail('detection.invalid', `search identifier '${name}' is empty`);
  return { kind: 'all', items: [{ field: null, modifiers: [], values: [def] }] };
}

/**
 * Conditions repeat (SigmaHQ's 3,141 rules have 328 distinct ones): each is parsed once and its
 * tree shared, which is safe as trees are read-only. Bounded, as rule texts come from callers.
 */
const conditions = new Map<string, Condition>();
const MAX_CONDITIONS = 10_000;

function conditionOf(text: string): Condition {
  let tree = conditions.get(text);
  if (tree === undefined) {
    tree = parseCondition(text);
    if (conditions.size >= MAX_CONDITIONS) conditions.clear();
    conditions.set(text, tree);
  }
  return tree;
}

/** `reserved` names keys of the section that are not search identifiers (a filter's `rules`). */
export function parseDetection(section: YamlMap, where: string, reserved: readonly string[] = []): Detection {
  const identifiers = new Map<string, DetectionNode>();
  let conditions: string[] | undefined;
  for (const [key, def] of section) {
    if (key === 'condition') {
      const list = isYamlList(def) ? def : [def];
      if (list.length === 0 || !list.every((c) => typeof c === 'string'))
        fail('condition.syntax', `${where}.condition must be a string or a list of strings`);
      conditions = list as string[];
    } else if (!reserved.includes(key)) identifiers.set(key, parseNode(key, def));
  }
  if (conditions === undefined) fail('rule.missing_field', `${where} has no condition`);
  const parsed = conditions.map(conditionOf);
  const condition: Condition = parsed.length === 1 ? parsed[0]! : { kind: 'or', args: parsed };
  return { identifiers, conditions, condition };
}

export interface CompileOptions {
  readonly placeholders: PlaceholderValues;
  /** Rewrites a rule field into the event's (a logsource mapping's hook). */
  readonly fieldName?: (field: string) => string;
}

function compileItem(item: DetectionItem, options: CompileOptions): Test {
  const field = item.field === null ? null : (options.fieldName?.(item.field) ?? item.field);
  const initial = item.values.map((v) => fromYaml(v) as SigmaType);
  if (field === null && initial.some((v) => v.kind === 'null'))
    fail('value.invalid_type', 'a keyword cannot be null');
  // A bare keyword is a substring search over the whole event (§1.2).
  const bareKeyword = field === null && !item.modifiers.some(isValueModifier);
  const names = bareKeyword ? [...item.modifiers, 'contains'] : item.modifiers;
  const modified = applyModifiers(field, names, initial, options.placeholders);
  const values = modified.values;
  const tests = values.map((v) => compileValue(v, field));
  const combined = modified.all ? allTests(tests) : anyTest(tests);
  return modified.negated ? (ctx) => !combined(ctx) : combined;
}

function compileNode(node: DetectionNode, options: CompileOptions): Test {
  switch (node.kind) {
    case 'all':
      return allTests(node.items.map((i) => compileItem(i, options)));
    case 'any':
      return anyTest(node.nodes.map((n) => compileNode(n, options)));
  }
}

export function compileDetection(detection: Detection, options: CompileOptions): Predicate<EvalContext> {
  const bound = new Map<string, Test>();
  for (const [name, node] of detection.identifiers) bound.set(name, compileNode(node, options));
  return bindCondition(detection.condition, bound);
}
