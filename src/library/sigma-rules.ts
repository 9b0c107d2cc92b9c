/**
 * The Sigma rules an index is built with, as `buildIndex({ sigma })` names them: `'community'`
 * (the builtin pack, what an Engine without added packs runs for `run_sigma_rules`), rules
 * from `loadRules` (correlations included), or a rule set from `compileRuleSet` (no
 * correlations: a rule set does not carry them). Compiled once and reused: the builtin pack
 * per process, loaded rules per `LoadResult` object.
 */
import type { SigmaPassRules } from '../analysis/index.js';
import { invalidOption } from '../errors/index.js';
import { compileRuleSet, type LoadResult, RuleSet } from '../sigma/index.js';

/** `'community'`, the result of `loadRules`, or a compiled `RuleSet`. */
export type IndexSigmaRules = 'community' | LoadResult | RuleSet;

let community: Promise<SigmaPassRules> | undefined;
const compiled = new WeakMap<object, SigmaPassRules>();

/** The builtin pack, loaded without a data directory, environment or user packs. */
async function builtinRules(): Promise<SigmaPassRules> {
  // Imported here, not at the top: the rule library (pack scanning, its index) loads only for
  // a build that asks for the community rules, not with the root or `/search` import.
  const { openRuleLibrary } = await import('../rules/index.js');
  const library = await openRuleLibrary({ dataDir: false, packs: [], env: {} });
  try {
    const loaded = library.sigmaRules();
    return { loaded, ruleSet: compileRuleSet({ rules: loaded.rules, filters: loaded.filters }) };
  } finally {
    library.close();
  }
}

const isLoadResult = (v: object): v is LoadResult =>
  ['rules', 'correlations', 'filters', 'diagnostics'].every((k) =>
    Array.isArray((v as Record<string, unknown>)[k]),
  );

/** Refuses at the door, synchronously, what `sigmaRulesOf` would refuse. */
export function checkSigmaRules(sigma: unknown): asserts sigma is IndexSigmaRules {
  if (sigma === 'community' || sigma instanceof RuleSet) return;
  if (sigma !== null && typeof sigma === 'object' && isLoadResult(sigma)) return;
  throw invalidOption('sigma', "'community', rules from loadRules, or a rule set from compileRuleSet", sigma);
}

/** The rules to build with, or undefined (no Sigma). */
export async function sigmaRulesOf(sigma: unknown): Promise<SigmaPassRules | undefined> {
  if (sigma === undefined) return undefined;
  if (sigma === 'community') {
    community ??= builtinRules().catch((e: unknown) => {
      community = undefined; // a later build tries again
      throw e;
    });
    return community;
  }
  if (sigma instanceof RuleSet) {
    let rules = compiled.get(sigma);
    if (rules === undefined) {
      const loaded: LoadResult = { rules: [...sigma.rules], correlations: [], filters: [], diagnostics: [] };
      rules = { loaded, ruleSet: sigma };
      compiled.set(sigma, rules);
    }
    return rules;
  }
  if (sigma !== null && typeof sigma === 'object' && isLoadResult(sigma)) {
    let rules = compiled.get(sigma);
    if (rules === undefined) {
      rules = { loaded: sigma, ruleSet: compileRuleSet({ rules: sigma.rules, filters: sigma.filters }) };
      compiled.set(sigma, rules);
    }
    return rules;
  }
  throw invalidOption('sigma', "'community', rules from loadRules, or a rule set from compileRuleSet", sigma);
}
