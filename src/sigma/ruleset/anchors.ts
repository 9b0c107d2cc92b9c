/**
 * Literal anchors: for a detection, a set of (field, lower-case literal) pairs at least one of
 * which occurs in any event it matches, or `undefined` when no such set can be read off.
 *
 * Why it holds: a case-insensitive string test passes only if the field's lower-cased text
 * matches the lower-cased glob, and every literal run of a glob occurs in any text it matches.
 * So an item's anchors are one literal per value (all values for OR, one value for `|all`), a
 * map's are any one item's, a list's the union of its members', `and` takes one side, `or`
 * the union, and `not` gives nothing. A keyword's anchor has no field: it may occur in any
 * value. Cased, numeric and regex tests give nothing, which only means the variant is always
 * evaluated.
 */
import { selectNames } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { applyModifiers, isValueModifier, type PlaceholderValues } from '../modifiers/index.js';
import { fromYaml, type SigmaType } from '../values.js';

export interface Anchor {
  /** `null`: a keyword, searched in every value of the event. */
  readonly field: string | null;
  readonly literal: string;
}

export type Anchors = readonly Anchor[];

/**
 * Short literals occur in nearly every event and would only cost scanning time. A non-ASCII
 * code unit counts triple: one symbol or emoji is as selective as a short word.
 */
const MIN_WEIGHT = 3;
/**
 * Any part of a literal occurs wherever the literal does, and twelve characters are already
 * rare: capping keeps the scanners small (SigmaHQ's driver rules list thousands of hashes).
 * The end is kept: paths differ most in their last characters (the file name).
 */
const MAX_LITERAL = 12;
const weight = (s: string): number => {
  let w = 0;
  for (let i = 0; i < s.length; i++) w += s.charCodeAt(i) < 0x80 ? 1 : 3;
  return w;
};

/** Prefers the set whose weakest literal is longest, then the smaller set. */
function better(a: Anchors | undefined, b: Anchors | undefined): Anchors | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const weakest = (s: Anchors) => Math.min(8, ...s.map((x) => x.literal.length));
  const [wa, wb] = [weakest(a), weakest(b)];
  if (wa !== wb) return wa > wb ? a : b;
  return a.length <= b.length ? a : b;
}

function union(sets: readonly (Anchors | undefined)[]): Anchors | undefined {
  if (sets.length === 0 || sets.some((s) => s === undefined)) return undefined;
  return (sets as Anchors[]).flat();
}

function valueLiterals(v: SigmaType): string[] | undefined {
  switch (v.kind) {
    case 'string': {
      if (v.cased) return undefined;
      let longest = '';
      for (const p of v.parts) if (typeof p === 'string' && p.length > longest.length) longest = p;
      const lower = longest.toLowerCase().slice(-MAX_LITERAL);
      return weight(lower) >= MIN_WEIGHT ? [lower] : undefined;
    }
    case 'expansion': {
      const all = v.values.map(valueLiterals);
      return all.some((x) => x === undefined) ? undefined : (all as string[][]).flat();
    }
    default:
      return undefined;
  }
}

function itemAnchors(item: DetectionItem, placeholders: PlaceholderValues): Anchors | undefined {
  const field = item.field;
  // As `compileItem` reads it: a bare keyword is a substring search over every value.
  const bareKeyword = field === null && !item.modifiers.some(isValueModifier);
  const names = bareKeyword ? [...item.modifiers, 'contains'] : item.modifiers;
  let modified: ReturnType<typeof applyModifiers>;
  try {
    const initial = item.values.map((v) => fromYaml(v) as SigmaType);
    modified = applyModifiers(field, names, initial, placeholders);
  } catch {
    return undefined;
  }
  if (modified.negated) return undefined;
  const perValue = modified.values.map((v) => valueLiterals(v)?.map((literal) => ({ field, literal })));
  if (modified.all) return perValue.reduce<Anchors | undefined>(better, undefined);
  return union(perValue);
}

function nodeAnchors(node: DetectionNode, placeholders: PlaceholderValues): Anchors | undefined {
  if (node.kind === 'all')
    return node.items.map((i) => itemAnchors(i, placeholders)).reduce<Anchors | undefined>(better, undefined);
  return union(node.nodes.map((n) => nodeAnchors(n, placeholders)));
}

export function detectionAnchors(detection: Detection, placeholders: PlaceholderValues): Anchors | undefined {
  const names = [...detection.identifiers.keys()];
  const memo = new Map<string, Anchors | undefined>();
  const ofName = (name: string): Anchors | undefined => {
    if (!memo.has(name)) {
      const node = detection.identifiers.get(name);
      memo.set(name, node === undefined ? undefined : nodeAnchors(node, placeholders));
    }
    return memo.get(name);
  };
  const walk = (c: Condition): Anchors | undefined => {
    switch (c.kind) {
      case 'identifier':
        return ofName(c.name);
      case 'not':
        return undefined;
      case 'and':
        return c.args.map(walk).reduce<Anchors | undefined>(better, undefined);
      case 'or':
        return union(c.args.map(walk));
      case 'selector': {
        const sets = selectNames(c.pattern, names).map(ofName);
        return c.quantifier === 'all' ? sets.reduce<Anchors | undefined>(better, undefined) : union(sets);
      }
    }
  };
  const found = walk(detection.condition);
  if (found === undefined) return undefined;
  // The same literal from several values or identifiers needs scanning once.
  const seen = new Set<string>();
  return found.filter((a) => {
    const k = `${a.field}\u0000${a.literal}`;
    return !seen.has(k) && seen.add(k) !== undefined;
  });
}
