/**
 * `runSigma`: the Sigma data endpoint. Rules run over small supplied data and the answer comes
 * back at once as `{ results: [...] }` of Table and Error elements; bad requests throw the
 * endpoint's errors (plain-text bodies).
 */
import { decodeRuleText } from '../../base64/index.js';
import { checkOptionKeys, invalidOption, TaeError } from '../../errors/index.js';
import { type LoadResult, loadRules } from '../load.js';
import type { SigmaCorrelation, SigmaRule } from '../model.js';
import type { PlaceholderValues } from '../modifiers/index.js';
import { RuleSet } from '../ruleset/index.js';
import { type CompiledSigma, SigmaSession } from '../session.js';
import { MAX_TEST_DATA_BYTES, parseTestData, tooLarge } from './input.js';
import { dataMatcher, matchRecords, type SigmaMatcher } from './match.js';
import { communityTable, customTable, type SigmaDataResult } from './results.js';

/** The body of `POST /analysis/sigma/data` (checked at run time all the same). */
export interface SigmaDataRequest {
  /** Base64 of JSON (one event, an array, or JSON lines) or XML events. */
  readonly test_data: string;
  readonly operation: 'run_rule' | 'run_community_rules';
  /** Base64 of a Sigma rule (YAML, several documents allowed); required for `run_rule`. */
  readonly rule?: string;
}

/**
 * Community rules: a compiled rule set (`compileRuleSet`), loaded rules with their rule set
 * (their correlations then run too), any matcher, or a function making one.
 */
export type SigmaCommunityRules =
  | RuleSet
  | CompiledSigma
  | SigmaMatcher
  | (() => RuleSet | CompiledSigma | SigmaMatcher);

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
  const text = decodeRuleText(request.rule, {
    maxBytes: MAX_TEST_DATA_BYTES,
    tooLarge: () => tooLarge('rule'),
  });
  if (text === null) throw ruleRequired();
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
  const { reported, diagnostics } = runSession(loaded, matcher, records);
  for (const d of diagnostics)
    errors.push({ type: 'Error', message: `Invalid Sigma rule format: ${d.message}` });
  return [customTable([...new Set(reported.map((r) => r.title))]), ...errors];
}

/**
 * The records through one Sigma session (as every entry point runs rules): the rules and
 * correlations that report on their own, each once, in the order first seen.
 */
function runSession(loaded: LoadResult, matcher: SigmaMatcher, records: ReturnType<typeof parseTestData>) {
  const session = new SigmaSession(loaded, matcher);
  const reported = new Set<SigmaRule | SigmaCorrelation>();
  for (const m of matchRecords(records, matcher))
    for (const rule of session.matched([m.rule], () => m.event, m)) reported.add(rule);
  const { hits, diagnostics } = session.finish();
  for (const h of hits) reported.add(h.correlation);
  return { reported: [...reported], diagnostics };
}

function runCommunity(records: ReturnType<typeof parseTestData>, options: RunSigmaOptions) {
  const source = options.community;
  if (source === undefined)
    throw new TaeError('INTERNAL', 'no community Sigma rules are configured', { bodyFormat: 'text' });
  const { matcher, loaded } = asMatcher(typeof source === 'function' ? source() : source);
  return [communityTable(runSession(loaded, matcher, records).reported)];
}

/**
 * A rule set is judged like custom rules (`dataMatcher`: events without a channel by detection
 * alone); the wrapper is kept per rule set, so repeated runs reuse it. Only loaded rules
 * (`{ loaded, ruleSet }`) bring their correlations.
 */
const ruleSetMatchers = new WeakMap<RuleSet, SigmaMatcher>();

interface CommunityMatcher {
  readonly matcher: SigmaMatcher;
  readonly loaded: LoadResult;
}

const loadedOf = (rules: readonly SigmaRule[]): LoadResult => ({
  rules: [...rules],
  correlations: [],
  filters: [],
  diagnostics: [],
});

function ruleSetMatcher(ruleSet: RuleSet): SigmaMatcher {
  let known = ruleSetMatchers.get(ruleSet);
  if (known === undefined) {
    known = dataMatcher(ruleSet.rules, ruleSet);
    ruleSetMatchers.set(ruleSet, known);
  }
  return known;
}

function asMatcher(source: unknown): CommunityMatcher {
  if (source instanceof RuleSet) return { matcher: ruleSetMatcher(source), loaded: loadedOf(source.rules) };
  if (source !== null && typeof source === 'object') {
    const compiled = source as Partial<CompiledSigma>;
    if (compiled.ruleSet instanceof RuleSet && compiled.loaded !== undefined)
      return { matcher: ruleSetMatcher(compiled.ruleSet), loaded: compiled.loaded };
    if (typeof (source as SigmaMatcher).match === 'function')
      return { matcher: source as SigmaMatcher, loaded: loadedOf([]) };
  }
  throw invalidOption(
    'community',
    'a rule set (compileRuleSet), loaded rules with their rule set, a matcher, or a function returning one',
    source,
  );
}

/**
 * Runs Sigma rules over supplied events (`POST /analysis/sigma/data` as a function): a custom
 * rule (`run_rule`) or the community rules of `options.community` (`run_community_rules`).
 * Resolves to the endpoint's body; a bad request rejects with the endpoint's `TaeError`. Async
 * like the library's other front-door functions; the rules run on the calling thread (the
 * Engine's `sigmaData` runs them on a worker).
 *
 * @example
 * const yaml = `title: Failed logon
 * logsource: {product: windows, service: security}
 * detection: {selection: {EventID: 4625}, condition: selection}`;
 * const rule = Buffer.from(yaml).toString('base64');
 * const events = Buffer.from(JSON.stringify([{ Channel: 'Security', EventID: 4625 }])).toString('base64');
 * const { results } = await runSigma({ test_data: events, operation: 'run_rule', rule });
 * console.log(results); // [{ type: 'Table', title: 'Sigma Analysis Results', data: [['Rule'], ['Failed logon']], … }]
 */
export async function runSigma(
  request: SigmaDataRequest,
  options: RunSigmaOptions = {},
): Promise<SigmaDataResponse> {
  return runSigmaSync(request, options);
}

/** `runSigma` on the calling thread, for the data endpoint's worker. */
export function runSigmaSync(request: SigmaDataRequest, options: RunSigmaOptions = {}): SigmaDataResponse {
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
