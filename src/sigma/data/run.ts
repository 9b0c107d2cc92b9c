/**
 * `runSigma`: the Sigma data endpoint. Rules run over small supplied data and the answer comes
 * back at once as `{ results: [...] }` of Table and Error elements; bad requests throw the
 * endpoint's errors (plain-text bodies).
 */
import { checkOptionKeys, invalidOption, TaeError } from '../../errors/index.js';
import { correlate, reportsStandalone } from '../correlate/index.js';
import { loadRules } from '../load.js';
import type { SigmaRule } from '../model.js';
import type { PlaceholderValues } from '../modifiers/index.js';
import { RuleSet } from '../ruleset/index.js';
import { decodeBase64Text, parseTestData } from './input.js';
import { dataMatcher, type MatchedEvent, matchRecords, type SigmaMatcher } from './match.js';
import { communityTable, customTable, type SigmaDataResult } from './results.js';

/** The body of `POST /analysis/sigma/data` (checked at run time all the same). */
export interface SigmaDataRequest {
  /** Base64 of JSON (one event, an array, or JSON lines) or XML events. */
  readonly test_data: string;
  readonly operation: 'run_rule' | 'run_community_rules';
  /** Base64 of a Sigma rule (YAML, several documents allowed); required for `run_rule`. */
  readonly rule?: string;
}

/** Community rules: a compiled rule set (`compileRuleSet`), any matcher, or a function making one. */
export type SigmaCommunityRules = RuleSet | SigmaMatcher | (() => RuleSet | SigmaMatcher);

export interface RunSigmaOptions {
  /** The community rules, required for `run_community_rules` (a function is called only then). */
  readonly community?: SigmaCommunityRules;
  /** How a set of custom rules is evaluated; defaults to `dataMatcher` (log-source variants). */
  readonly compile?: (rules: readonly SigmaRule[]) => SigmaMatcher;
  readonly placeholders?: PlaceholderValues;
}

export interface SigmaDataResponse {
  readonly results: SigmaDataResult[];
}

const OPERATIONS = ['run_rule', 'run_community_rules'] as const;

const KNOWN_OPTIONS: Record<keyof RunSigmaOptions, true> = {
  community: true,
  compile: true,
  placeholders: true,
};

const ruleRequired = () => new TaeError('VALIDATION_FAILED', 'Rule is required', { bodyFormat: 'text' });

/** Every rule tested on every event, by its detection alone (no log source to go by). */
export function detectionMatcher(rules: readonly SigmaRule[]): SigmaMatcher {
  return { match: (event) => rules.filter((r) => r.matches(event)) };
}

function runCustom(
  request: SigmaDataRequest,
  records: ReturnType<typeof parseTestData>,
  options: RunSigmaOptions,
) {
  const text = decodeBase64Text(request.rule, 'rule');
  if (text === undefined || text.trim() === '') throw ruleRequired();
  const loaded = loadRules(text, 'rule', options.placeholders ? { placeholders: options.placeholders } : {});
  const errors: SigmaDataResult[] = loaded.diagnostics.map((d) => ({
    type: 'Error',
    message: `Invalid Sigma rule format: ${d.title ? `${d.title}: ` : ''}${d.message}`,
  }));
  if (loaded.rules.length === 0) {
    if (errors.length === 0)
      errors.push({ type: 'Error', message: 'Invalid Sigma rule format: no detection rule' });
    return errors;
  }
  const matcher = (options.compile ?? ((rules) => dataMatcher(rules)))(loaded.rules);
  const matched = matchRecords(records, matcher);
  const standalone = reportsStandalone(loaded.correlations);
  const titles = new Set(matched.filter((m) => standalone(m.rule)).map((m) => m.rule.title));
  if (loaded.correlations.length > 0) {
    const { hits, diagnostics } = correlate({
      correlations: loaded.correlations,
      matches: matched,
      knownRules: loaded.rules,
    });
    for (const h of hits) if (standalone(h.correlation)) titles.add(h.correlation.title);
    for (const d of diagnostics)
      errors.push({ type: 'Error', message: `Invalid Sigma rule format: ${d.message}` });
  }
  return [customTable([...titles]), ...errors];
}

function runCommunity(records: ReturnType<typeof parseTestData>, options: RunSigmaOptions) {
  const source = options.community;
  if (source === undefined)
    throw new TaeError('INTERNAL', 'no community Sigma rules are configured', { bodyFormat: 'text' });
  const matcher = asMatcher(typeof source === 'function' ? source() : source);
  const seen = new Map<SigmaRule, MatchedEvent>();
  for (const m of matchRecords(records, matcher)) if (!seen.has(m.rule)) seen.set(m.rule, m);
  return [communityTable([...seen.keys()])];
}

/**
 * A rule set is judged like custom rules (`dataMatcher`: events without a channel by detection
 * alone); the wrapper is kept per rule set, so repeated runs reuse it.
 */
const ruleSetMatchers = new WeakMap<RuleSet, SigmaMatcher>();

function asMatcher(source: unknown): SigmaMatcher {
  if (source instanceof RuleSet) {
    const known = ruleSetMatchers.get(source);
    if (known !== undefined) return known;
    const made = dataMatcher(source.rules, source);
    ruleSetMatchers.set(source, made);
    return made;
  }
  if (source !== null && typeof source === 'object' && typeof (source as SigmaMatcher).match === 'function')
    return source as SigmaMatcher;
  throw invalidOption(
    'community',
    'a rule set (compileRuleSet), a matcher, or a function returning one',
    source,
  );
}

/**
 * Runs Sigma rules over supplied events (`POST /analysis/sigma/data` as a function): a custom
 * rule (`run_rule`) or the community rules of `options.community` (`run_community_rules`).
 */
export function runSigma(request: SigmaDataRequest, options: RunSigmaOptions = {}): SigmaDataResponse {
  checkOptionKeys(options, KNOWN_OPTIONS);
  if (request === null || typeof request !== 'object')
    throw new TaeError('INVALID_ARGUMENT', 'Invalid test data format', { bodyFormat: 'text' });
  const records = parseTestData(request.test_data);
  const operation = request.operation;
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation))
    throw new TaeError('INVALID_ARGUMENT', 'Invalid operation', {
      bodyFormat: 'text',
      context: { expected: OPERATIONS.join(' or ') },
    });
  const results =
    operation === 'run_rule' ? runCustom(request, records, options) : runCommunity(records, options);
  return { results };
}
