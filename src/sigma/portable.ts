/**
 * Loaded rules in a form another thread can load again: the rule texts, the placeholders, and
 * which of the loaded rules were kept. A worker loads them once per version and names each
 * match by its position in the kept rules, so only numbers travel back; the thread that made
 * the portable form maps them to its own rule objects. The texts sit in a SharedArrayBuffer:
 * every worker reads the same bytes, none is copied per task.
 */
import type { LoadResult } from './load.js';
import { loadRules } from './load.js';
import type { SigmaFilter, SigmaRule } from './model.js';
import type { PlaceholderValues } from './modifiers/index.js';
import { compileRuleSet, type RuleSet } from './ruleset/index.js';

/** One rule file's text and the name its rules are loaded under. */
export interface PortableText {
  readonly source: string;
  readonly text: string;
  /** Whether `|expand` takes the placeholders (library rules) or none (rule files). */
  readonly placeholders: boolean;
}

export interface PortableSigma {
  /** Changes whenever the rules do: workers reload on a new version. */
  readonly version: string;
  /** UTF-8 JSON of PortableBody, in shared memory. */
  readonly shared: Uint8Array;
  /** Titles of the kept rules, in order (matches are named by position among them). */
  readonly titles: readonly string[];
}

interface PortableBody {
  readonly texts: readonly PortableText[];
  readonly placeholders: PlaceholderValues;
  /** Positions of the kept rules among all the texts' rules; null: all. */
  readonly keep: readonly number[] | null;
  /** Titles of the kept rules, in order: a load that differs is refused, never misnamed. */
  readonly titles: readonly string[];
  /** Per text, documents known to compile (load.ts `trusted`), or null. */
  readonly trusted: readonly (readonly number[])[] | null;
}

let serial = 0;

/**
 * The portable form of `loaded`, which must be `all` (what the texts load, in order) or
 * a subset of its rules in the same order.
 */
export function portableSigma(
  texts: readonly PortableText[],
  placeholders: PlaceholderValues,
  all: LoadResult,
  loaded: LoadResult,
  trusted?: readonly (readonly number[])[],
): PortableSigma {
  const position = new Map(all.rules.map((r, i) => [r, i]));
  const keep = loaded.rules === all.rules ? null : loaded.rules.map((r) => position.get(r) ?? -1);
  const body: PortableBody = {
    texts,
    placeholders,
    keep,
    titles: loaded.rules.map((r) => r.title),
    trusted: trusted?.length === texts.length ? trusted : null,
  };
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  return { version: `${process.pid}:${++serial}:${bytes.length}`, shared, titles: body.titles };
}

/** Whether matches named by `portable` are positions in `rules` (made from the same rules). */
export const portableFits = (portable: PortableSigma, rules: readonly SigmaRule[]): boolean =>
  portable.titles.length === rules.length && rules.every((r, i) => r.title === portable.titles[i]);

/** A portable rule set loaded on this thread: its rule set, and each rule's position. */
export interface LoadedPortable {
  readonly ruleSet: RuleSet;
  readonly position: ReadonlyMap<SigmaRule, number>;
}

/** The kept rules compiled, as the making thread has them; null when they cannot be loaded alike. */
export function loadPortable(portable: Pick<PortableSigma, 'shared'>): LoadedPortable | null {
  const body = JSON.parse(Buffer.from(portable.shared).toString('utf8')) as PortableBody;
  const rules: SigmaRule[] = [];
  const filters: SigmaFilter[] = [];
  for (const [i, t] of body.texts.entries()) {
    const trusted = body.trusted?.[i];
    const loaded = loadRules(t.text, t.source, {
      ...(t.placeholders ? { placeholders: body.placeholders } : {}),
      ...(trusted === undefined ? {} : { trusted: new Set(trusted) }),
    });
    rules.push(...loaded.rules);
    filters.push(...loaded.filters);
  }
  const kept = body.keep === null ? rules : body.keep.map((i) => rules[i]);
  if (kept.length !== body.titles.length || kept.some((r, i) => r?.title !== body.titles[i])) return null;
  const ruleSet = compileRuleSet({ rules: kept as SigmaRule[], filters });
  return { ruleSet, position: new Map((kept as SigmaRule[]).map((r, i) => [r, i])) };
}
