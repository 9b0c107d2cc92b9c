/**
 * A detection rewritten for one source through its field map: fields renamed, plain values
 * converted, `User` split, and items on fields the source never has folded away.
 *
 * Fields the source never has (OriginalFileName, Hashes… in Security 4688) are read
 * pessimistically, not as absent. As absent (the spec's reading) a selection on one is false
 * and `not filter_hash` on one is true, so a 4688 variant would fire exactly where the Sysmon
 * rule's filter would have suppressed it. Instead each such item becomes the literal that
 * helps the match least: false where it appears positively, true under a `not` (making the
 * negation false). The variant then matches only if the rule would have matched whatever the
 * missing fields held: no false positive comes from missing data. A variant that can never
 * match under this reading (every positive selection needs such a field, or an exclusion
 * depends on one) is dropped, with the fields as the reason (Hayabusa's `is_detectable`).
 */
import { selectNames } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { type Conjunction, splitAccount } from './account.js';
import { and, conditionText, or } from './condition-text.js';
import { type FieldMap, type FieldTranslation, VALUE_CONVERSIONS } from './fields.js';

export type Translation =
  | { readonly kind: 'detection'; readonly detection: Detection; readonly folded: readonly string[] }
  /** The condition folded to a constant: the variant can never match (or would match everything). */
  | { readonly kind: 'constant'; readonly value: boolean; readonly folded: readonly string[] };

type Folded<T> =
  | { readonly kind: 'const'; readonly value: boolean }
  | { readonly kind: 'value'; readonly value: T };

const constant = (value: boolean) => ({ kind: 'const', value }) as const;

/** Modifiers that leave a value's text alone, so converting the text is still meaningful. */
const TEXT_PRESERVING = new Set(['all', 'neq', 'cased']);

/** Bounds how many maps one map becomes when `User` items split into alternatives. */
const MAX_COMBINATIONS = 64;

/**
 * `pessimistic` is the reading variants use; `absent` (the spec's: a missing field fails every
 * positive test) only tells a drop's reason apart: selections that need the field, or an
 * exclusion that depends on it.
 */
export type UnavailableReading = 'pessimistic' | 'absent';

class Translator {
  readonly folded = new Set<string>();
  constructor(
    private readonly map: FieldMap,
    private readonly reading: UnavailableReading,
  ) {}

  private lookup(field: string): FieldTranslation | undefined {
    return this.map.fields.get(field);
  }

  /** Whether an item needs a field the source never has (its own, or a `fieldref` target). */
  unavailable(item: DetectionItem): string | undefined {
    if (item.field !== null && this.lookup(item.field)?.kind === 'unavailable') return item.field;
    if (!item.modifiers.includes('fieldref')) return undefined;
    for (const v of item.values)
      if (typeof v === 'string' && this.lookup(v)?.kind === 'unavailable') return v;
    return undefined;
  }

  nodeNeedsFolding(node: DetectionNode): boolean {
    return node.kind === 'all'
      ? node.items.some((i) => this.unavailable(i) !== undefined)
      : node.nodes.some((n) => this.nodeNeedsFolding(n));
  }

  private renamed(field: string): string {
    const t = this.lookup(field);
    switch (t?.kind) {
      case 'rename':
      case 'convert':
        return t.to;
      case 'account':
        return t.user;
      case 'unavailable':
      case undefined:
        return field;
    }
  }

  /** `positive`: the item is under an even number of `not`s. */
  item(item: DetectionItem, positive: boolean, splitAccounts: boolean): Folded<Conjunction[]> {
    const missing = this.unavailable(item);
    if (missing !== undefined) {
      this.folded.add(missing);
      return constant(this.reading === 'pessimistic' && !positive);
    }
    const fieldref = item.modifiers.includes('fieldref');
    const values = fieldref
      ? item.values.map((v) => (typeof v === 'string' ? this.renamed(v) : v))
      : item.values;
    if (item.field === null) return { kind: 'value', value: [[{ ...item, values }]] };
    const t = this.lookup(item.field);
    switch (t?.kind) {
      case undefined:
        return { kind: 'value', value: [[{ ...item, values }]] };
      case 'rename':
        return { kind: 'value', value: [[{ ...item, field: t.to, values }]] };
      case 'convert': {
        const convert = VALUE_CONVERSIONS[t.conversion];
        const plain = !fieldref && item.modifiers.every((m) => TEXT_PRESERVING.has(m));
        const converted = plain
          ? values.map((v) => (v === null || typeof v === 'boolean' ? v : (convert(String(v)) ?? v)))
          : values;
        return { kind: 'value', value: [[{ ...item, field: t.to, values: converted }]] };
      }
      case 'account': {
        const split = splitAccounts && !fieldref ? splitAccount(item, t.user, t.domain) : undefined;
        return { kind: 'value', value: split ?? [[{ ...item, field: t.user, values }]] };
      }
      case 'unavailable':
        return constant(this.reading === 'pessimistic' && !positive);
    }
  }

  node(node: DetectionNode, positive: boolean, splitAccounts = true): Folded<DetectionNode> {
    switch (node.kind) {
      case 'all': {
        let combos: Conjunction[] = [[]];
        for (const i of node.items) {
          const r = this.item(i, positive, splitAccounts);
          if (r.kind === 'const') {
            if (!r.value) return constant(false);
            continue;
          }
          combos = combos.flatMap((c) => r.value.map((alt) => [...c, ...alt]));
          if (combos.length > MAX_COMBINATIONS && splitAccounts) return this.node(node, positive, false);
        }
        if (combos.length === 1 && combos[0]!.length === 0) return constant(true);
        if (combos.length === 1) return { kind: 'value', value: { kind: 'all', items: combos[0]! } };
        return {
          kind: 'value',
          value: { kind: 'any', nodes: combos.map((items) => ({ kind: 'all', items })) },
        };
      }
      case 'any': {
        const nodes: DetectionNode[] = [];
        for (const n of node.nodes) {
          const r = this.node(n, positive, splitAccounts);
          if (r.kind === 'const') {
            if (r.value) return constant(true);
            continue;
          }
          nodes.push(r.value);
        }
        if (nodes.length === 0) return constant(false);
        return { kind: 'value', value: nodes.length === 1 ? nodes[0]! : { kind: 'any', nodes } };
      }
    }
  }
}

function combine(kind: 'and' | 'or', parts: readonly (Condition | boolean)[]): Condition | boolean {
  const absorbing = kind === 'or';
  const args: Condition[] = [];
  for (const p of parts) {
    if (p === absorbing) return absorbing;
    if (p !== !absorbing) args.push(p as Condition);
  }
  if (args.length === 0) return !absorbing;
  return kind === 'and' ? and(args) : or(args);
}

/** The detection as the source's events spell it; `undefined` map: unchanged. */
export function translateDetection(
  detection: Detection,
  map: FieldMap | undefined,
  reading: UnavailableReading = 'pessimistic',
): Translation {
  if (map === undefined) return { kind: 'detection', detection, folded: [] };
  const t = new Translator(map, reading);
  const names = [...detection.identifiers.keys()];
  const needsFolding = new Set(names.filter((n) => t.nodeNeedsFolding(detection.identifiers.get(n)!)));
  const out = new Map<string, DetectionNode>();
  for (const n of names) {
    if (needsFolding.has(n)) continue;
    const r = t.node(detection.identifiers.get(n)!, true);
    // Without unavailable fields nothing folds to a constant; kept whole so selectors stay valid.
    if (r.kind === 'value') out.set(n, r.value);
  }
  const negName = (n: string) => {
    let name = `_neg_${n}`;
    while (detection.identifiers.has(name)) name = `_${name}`;
    return name;
  };
  /** An identifier under the given polarity: its folded node's name, or a constant. */
  const ref = (n: string, positive: boolean): Condition | boolean => {
    if (!needsFolding.has(n)) return { kind: 'identifier', name: n };
    const r = t.node(detection.identifiers.get(n)!, positive);
    if (r.kind === 'const') return r.value;
    const name = positive ? n : negName(n);
    out.set(name, r.value);
    return { kind: 'identifier', name };
  };
  const fold = (c: Condition, positive: boolean): Condition | boolean => {
    switch (c.kind) {
      case 'identifier':
        return ref(c.name, positive);
      case 'not': {
        const x = fold(c.arg, !positive);
        return typeof x === 'boolean' ? !x : { kind: 'not', arg: x };
      }
      case 'and':
      case 'or':
        return combine(
          c.kind,
          c.args.map((a) => fold(a, positive)),
        );
      case 'selector': {
        const selected = selectNames(c.pattern, names);
        if (!selected.some((n) => needsFolding.has(n))) return c;
        return combine(
          c.quantifier === 'all' ? 'and' : 'or',
          selected.map((n) => ref(n, positive)),
        );
      }
    }
  };
  const condition = fold(detection.condition, true);
  const folded = [...t.folded].sort();
  if (typeof condition === 'boolean') return { kind: 'constant', value: condition, folded };
  return {
    kind: 'detection',
    detection: { identifiers: out, conditions: [conditionText(condition)], condition },
    folded,
  };
}
