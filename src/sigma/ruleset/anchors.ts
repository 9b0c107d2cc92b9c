/**
 * Literal anchors: for a detection, clauses of (field, lower-case literal) pairs, every clause
 * holding in any event it matches (at least one of its pairs occurs), or `undefined` when none
 * can be read off.
 *
 * Why it holds: a case-insensitive string test passes only if the field's lower-cased text
 * matches the lower-cased glob, and every literal run of a glob occurs in any text it matches;
 * a cased test of an ASCII literal passes only if the folded text holds the folded literal;
 * a regular expression needs the literals regex-literals.ts reads off it. So an item gives one
 * clause with a literal per value (OR), or a clause per value under `|all`; a map joins its
 * items' clauses, a list (OR) pairs its members' clauses, `and` joins, `or` pairs, and `not`
 * gives nothing. A keyword's anchor has no field: it may occur in any value. Numeric and other
 * typed tests give nothing, which only means the variant is always evaluated.
 */
import { selectNames } from '../condition/evaluate.js';
import type { Condition } from '../condition/parse.js';
import type { Detection, DetectionItem, DetectionNode } from '../detection.js';
import { applyModifiers, isValueModifier, type PlaceholderValues } from '../modifiers/index.js';
import { fromYaml, type SigmaType } from '../values.js';
import { regexLiterals } from './regex-literals.js';

export interface Anchor {
  /** `null`: a keyword, searched in every value of the event. */
  readonly field: string | null;
  readonly literal: string;
}

/** At least one of its anchors occurs in any event the detection matches. */
export type AnchorClause = readonly Anchor[];
/** Clauses that all hold (a conjunction), strongest first. */
export type Anchors = readonly AnchorClause[];

/**
 * Short literals occur in nearly every event and would only cost scanning time. Symbols that
 * ordinary text and paths rarely hold count double, the rarest triple (`^^` and `` ` `` mark
 * command-line obfuscation), and so does a non-ASCII code unit: one symbol or emoji is as
 * selective as a short word. Weights change only how often a variant is evaluated, never a match.
 */
const MIN_WEIGHT = 3;
const RARE = new Uint8Array(128);
for (const c of '|{}[]<>%!#*@$&?+=;') RARE[c.charCodeAt(0)] = 2;
for (const c of '^`~') RARE[c.charCodeAt(0)] = 3;
const weight = (s: string): number => {
  let w = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    w += c < 0x80 ? RARE[c] || 1 : 3;
  }
  return w;
};
const selective = (literal: string): boolean => weight(literal) >= MIN_WEIGHT;
const isAscii = (s: string): boolean => /^[\x00-\x7f]*$/.test(s);
/**
 * Any part of a literal occurs wherever the literal does, and twelve characters are already
 * rare: capping keeps the scanners small (SigmaHQ's driver rules list thousands of hashes).
 * The end is kept: paths differ most in their last characters (the file name).
 */
const MAX_LITERAL = 12;
/**
 * Clauses kept per variant: a second clause is what closes `Image|endswith: powershell.exe`
 * rules on PowerShell events without the command line they look for; past a few, each clause
 * costs a check on every event and rarely closes anything the others left open.
 */
const MAX_CLAUSES = 4;

/** Kept per clause: an OR over many selections ranks the same long clauses at every step. */
const strengths = new WeakMap<AnchorClause, number>();
function strength(c: AnchorClause): number {
  let weakest = strengths.get(c);
  if (weakest === undefined) {
    weakest = 8;
    for (const a of c) if (a.literal.length < weakest) weakest = a.literal.length;
    strengths.set(c, weakest);
  }
  return weakest;
}

/**
 * The strongest clauses: the weakest literal longest, then the fewest literals. Clauses that
 * look alike (same strength, size and ends) are kept once: dropping a clause of a conjunction
 * only weakens it, so a false likeness costs selectivity, never a match.
 */
function strongest(clauses: readonly AnchorClause[]): Anchors {
  const ranked = clauses.map((c) => ({ c, s: strength(c) }));
  ranked.sort((x, y) => y.s - x.s || x.c.length - y.c.length);
  const seen = new Set<string>();
  const out: AnchorClause[] = [];
  for (const { c, s } of ranked) {
    const first = c[0]!;
    const last = c[c.length - 1]!;
    const k = `${s}\u0000${c.length}\u0000${first.field}\u0000${first.literal}\u0000${last.field}\u0000${last.literal}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(c);
    if (out.length === MAX_CLAUSES) break;
  }
  return out;
}

/** Every side holds: their clauses together (a side that gives nothing adds nothing). */
function and(sets: readonly (Anchors | undefined)[]): Anchors | undefined {
  const clauses = sets.flatMap((s) => s ?? []);
  return clauses.length === 0 ? undefined : strongest(clauses);
}

/** One side holds: a clause from each side joined, for each pairing kept. */
function or(sets: readonly (Anchors | undefined)[]): Anchors | undefined {
  if (sets.length === 0 || sets.some((s) => s === undefined)) return undefined;
  let acc = sets[0]!;
  for (let i = 1; i < sets.length; i++) {
    const joined: AnchorClause[] = [];
    for (const x of acc)
      for (const y of sets[i]!) {
        const xy = x.concat(y);
        strengths.set(xy, Math.min(strength(x), strength(y)));
        joined.push(xy);
      }
    acc = strongest(joined);
  }
  return acc;
}

/** The same literal from several values or identifiers needs scanning once. */
function dedupe(clause: AnchorClause): AnchorClause {
  const seen = new Set<string>();
  return clause.filter((a) => {
    const k = `${a.field}\u0000${a.literal}`;
    return !seen.has(k) && seen.add(k) !== undefined;
  });
}

/** One value's literals (one of which it needs), lower-case; undefined: none is needed. */
function stringLiterals(v: SigmaType): string[] | undefined {
  switch (v.kind) {
    case 'string': {
      let longest = '';
      // A cased literal is found folded only when folding it is per character (ASCII).
      for (const p of v.parts)
        if (typeof p === 'string' && p.length > longest.length && (!v.cased || isAscii(p))) longest = p;
      const lower = longest.toLowerCase().slice(-MAX_LITERAL);
      return selective(lower) ? [lower] : undefined;
    }
    case 'expansion': {
      const all = v.values.map(stringLiterals);
      return all.some((x) => x === undefined) ? undefined : (all as string[][]).flat();
    }
    default:
      return undefined;
  }
}

function valueAnchors(v: SigmaType, field: string | null): Anchors | undefined {
  if (v.kind === 'regex') {
    const cnf = regexLiterals(v.pattern, selective);
    return cnf?.map((clause) => clause.map((literal) => ({ field, literal: literal.slice(-MAX_LITERAL) })));
  }
  const literals = stringLiterals(v);
  return literals === undefined ? undefined : [literals.map((literal) => ({ field, literal }))];
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
  const perValue = modified.values.map((v) => valueAnchors(v, field));
  return modified.all ? and(perValue) : or(perValue);
}

function nodeAnchors(node: DetectionNode, placeholders: PlaceholderValues): Anchors | undefined {
  if (node.kind === 'all') return and(node.items.map((i) => itemAnchors(i, placeholders)));
  return or(node.nodes.map((n) => nodeAnchors(n, placeholders)));
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
        return and(c.args.map(walk));
      case 'or':
        return or(c.args.map(walk));
      case 'selector': {
        const sets = selectNames(c.pattern, names).map(ofName);
        return c.quantifier === 'all' ? and(sets) : or(sets);
      }
    }
  };
  return walk(detection.condition)?.map(dedupe);
}

/**
 * Anchors a cache gave back, if they have the shape this version makes (a list of clauses of
 * field and literal pairs, or null: none); undefined for anything else, which is then computed
 * anew (an older cache kept one flat list).
 */
export function anchorsFromData(v: unknown): Anchors | null | undefined {
  if (v === null) return null;
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_CLAUSES) return undefined;
  for (const clause of v) {
    if (!Array.isArray(clause) || clause.length === 0) return undefined;
    for (const a of clause) {
      const { field, literal } = (a ?? {}) as { field?: unknown; literal?: unknown };
      if ((field !== null && typeof field !== 'string') || typeof literal !== 'string' || literal === '')
        return undefined;
    }
  }
  return v as Anchors;
}
