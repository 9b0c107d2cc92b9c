/**
 * Loaded rules in a form another thread can load again: the rule texts' parse (the rule
 * cache's bytes: workers parse no YAML), the placeholders, and which of the loaded rules were
 * kept. A worker loads them once per version and names each match by its position in the kept
 * rules, so only numbers travel back; the thread that made the portable form maps them to its
 * own rule objects. The body sits in a SharedArrayBuffer: every worker reads the same bytes,
 * none is copied per task.
 */
import { deserialize, serialize } from 'node:v8';
import type { LoadResult } from './load.js';
import { loadParsedRules } from './load.js';
import { mapsLogSource } from './logsource/index.js';
import type { SigmaFilter, SigmaRule } from './model.js';
import type { PlaceholderValues } from './modifiers/index.js';
import { decodeParsed } from './parsed-form.js';
import { compileRuleSet, type RuleSet } from './ruleset/index.js';

/** The rule texts' parse, as `encodeParsed` made it, and the names their rules are loaded under. */
export interface PortableTexts {
  readonly sources: readonly string[];
  readonly parsed: Uint8Array;
  /** Texts from this position on take the placeholders (library rules); those before, none (rule files). */
  readonly placeholdersFrom: number;
}

export interface PortableSigma {
  /** Changes whenever the rules do: workers reload on a new version. */
  readonly version: string;
  /** V8-serialized PortableBody, in shared memory. */
  readonly shared: Uint8Array;
  /** Titles of the kept rules, in order (matches are named by position among them). */
  readonly titles: readonly string[];
}

interface PortableBody extends PortableTexts {
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
  texts: PortableTexts,
  placeholders: PlaceholderValues,
  all: LoadResult,
  loaded: LoadResult,
  trusted?: readonly (readonly number[])[],
): PortableSigma {
  const position = new Map(all.rules.map((r, i) => [r, i]));
  const keep = loaded.rules === all.rules ? null : loaded.rules.map((r) => position.get(r) ?? -1);
  const body: PortableBody = {
    sources: texts.sources,
    parsed: texts.parsed,
    placeholdersFrom: texts.placeholdersFrom,
    placeholders,
    keep,
    titles: loaded.rules.map((r) => r.title),
    trusted: trusted?.length === texts.sources.length ? trusted : null,
  };
  const bytes = serialize(body);
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
  // Copied out of shared memory: V8 deserializes from bytes no other thread may change.
  const body = deserialize(portable.shared.slice()) as PortableBody;
  const parsed = decodeParsed(body.parsed, body.sources);
  const rules: SigmaRule[] = [];
  const filters: SigmaFilter[] = [];
  for (const [i, p] of parsed.entries()) {
    const trusted = body.trusted?.[i];
    const loaded = loadParsedRules(p, body.sources[i]!, {
      ...(i >= body.placeholdersFrom ? { placeholders: body.placeholders } : {}),
      ...(trusted === undefined ? {} : { trusted: new Set(trusted) }),
      lean: true,
    });
    for (const r of loaded.rules) rules.push(r);
    for (const f of loaded.filters) filters.push(f);
  }
  const kept = body.keep === null ? rules : body.keep.map((i) => rules[i]);
  if (kept.length !== body.titles.length || kept.some((r, i) => r?.title !== body.titles[i])) return null;
  // Rules whose logsource maps to no Windows event never match: left out, they are garbage now
  // (SigmaHQ's rules/ has 734 of 3,207); the others keep their positions among the kept rules.
  const position = new Map<SigmaRule, number>();
  for (const [i, r] of (kept as SigmaRule[]).entries()) if (mapsLogSource(r.logsource)) position.set(r, i);
  const ruleSet = compileRuleSet({ rules: [...position.keys()], filters });
  return { ruleSet, position };
}
