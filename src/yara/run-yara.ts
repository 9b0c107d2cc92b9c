/**
 * `runYara`: POST /analysis/yara/data as a function. Request errors throw TaeError with the
 * spec's status and a plain-text body; everything that goes wrong during the analysis
 * (compiler errors, timeouts, oversized data) comes back as an Error element, status 200.
 */
import type { NativeVariables } from '../../native/yara-x.js';
import { base64ByteLength } from '../base64/index.js';
import { checkOptionKeys, invalidOption, isTaeError, TaeError } from '../errors/index.js';
import type { CompiledRuleSet } from './cache.js';
import { diagnosticsText } from './diagnostics.js';
import { defaultYaraEngine, type ScanOutcome, type YaraEngine } from './engine.js';
import {
  COMMUNITY_COLUMNS,
  COMMUNITY_TABLE_TITLE,
  CUSTOM_COLUMNS,
  CUSTOM_TABLE_TITLE,
  errorInsight,
  matchRow,
  metadataInsight,
  NO_MATCH_MESSAGE,
  type RowShape,
  TEST_DATA_LABEL,
  tableInsight,
  timeLimitMessage,
  timeoutMessage,
  type YaraDataElement,
  type YaraDataResponse,
} from './insights.js';
import { checkTimeout, checkVariables } from './options.js';
import {
  decodeBase64Shared,
  type ResolvedDataRequest,
  resolveDataRequest,
  type YaraDataRequest,
} from './request.js';

/** The community pack, compiled by the rule library (or a function producing it on first use). */
export type CommunityRules = CompiledRuleSet | (() => CompiledRuleSet | Promise<CompiledRuleSet>);

export const MAX_TEST_DATA_BYTES = 32 * 1024 * 1024;

export interface RunYaraOptions {
  /** Required for `run_community_rules`. */
  readonly community?: CommunityRules;
  /** Default: the process-wide engine. */
  readonly engine?: YaraEngine;
  /** Decoded test data larger than this is refused in-band (default 32 MiB). */
  readonly maxTestDataBytes?: number;
  /** Per scan (default: the engine's). */
  readonly timeoutMs?: number;
  /**
   * The whole request (compile and scan, including waits for a worker), from the call on. Past
   * it the result is an in-band Error; the native scan is also cut then, within a second.
   */
  readonly timeLimitMs?: number;
  /** Scan-time values of external variables the rules declare. */
  readonly variables?: NativeVariables;
  readonly signal?: AbortSignal;
}

const KNOWN_OPTIONS: Record<keyof RunYaraOptions, true> = {
  community: true,
  engine: true,
  maxTestDataBytes: true,
  timeoutMs: true,
  timeLimitMs: true,
  variables: true,
  signal: true,
};

export async function resolveCommunity(community: CommunityRules | undefined): Promise<CompiledRuleSet> {
  const rules = typeof community === 'function' ? await community() : community;
  if (!(rules?.serialized instanceof Uint8Array))
    throw invalidOption('community', 'a compiled rule set (or a function returning one)', rules);
  return rules;
}

/**
 * Runs YARA-X over supplied data (`POST /analysis/yara/data` as a function): a custom rule
 * (`run_rule`) or the compiled community rules of `options.community`.
 *
 * @example
 * const rule = Buffer.from('rule marker { strings: $a = "MARK" condition: $a }').toString('base64');
 * const data = Buffer.from('some bytes with MARK in them').toString('base64');
 * const { results } = await runYara({ test_data: data, operation: 'run_rule', rule });
 * for (const element of results) if ('Table' in element) console.log(element.Table.data);
 */
export async function runYara(
  request: YaraDataRequest,
  options: RunYaraOptions = {},
): Promise<YaraDataResponse> {
  checkOptionKeys(options, KNOWN_OPTIONS);
  const limit = options.timeLimitMs;
  if (limit !== undefined) checkTimeout('timeLimitMs', limit);
  const timer = limit === undefined ? undefined : AbortSignal.timeout(limit);
  const deadline = performance.now() + (limit ?? Number.POSITIVE_INFINITY);
  const req = resolveDataRequest(request);
  const maxBytes = options.maxTestDataBytes ?? MAX_TEST_DATA_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0)
    throw invalidOption('maxTestDataBytes', 'a non-negative integer', maxBytes);
  checkVariables('variables', options.variables);
  const engine = options.engine ?? defaultYaraEngine();
  const tail = req.operation === 'run_rule' ? () => metadataInsight('', req.rule) : null;
  const withTail = (e: YaraDataElement) => ({ results: tail ? [e, tail()] : [e] });
  const size = base64ByteLength(req.testData);
  if (size > maxBytes)
    return withTail(errorInsight(`Test data is ${size} bytes, over the ${maxBytes}-byte limit`));
  if (timer === undefined || limit === undefined) return { results: await analyse(req, engine, options) };
  const signal = options.signal ? AbortSignal.any([timer, options.signal]) : timer;
  const work = analyse(req, engine, { ...options, signal }, deadline);
  work.catch(() => {}); // settles after a cut too (a shared compile finishing): nobody waits then
  try {
    // Work that takes no signal (the community set compiling on first use) is raced, not awaited.
    return { results: await Promise.race([work, cancelledAt(timer)]) };
  } catch (e) {
    // A compile shared with another request may be cancelled by that request's limit: the same verdict.
    if (!(isTaeError(e) && e.code === 'CANCELLED') || options.signal?.aborted) throw e;
    return withTail(errorInsight(timeLimitMessage(limit)));
  }
}

const cancelledAt = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    const cut = () => reject(new TaeError('CANCELLED', 'the time limit passed', { cause: signal.reason }));
    if (signal.aborted) cut();
    else signal.addEventListener('abort', cut, { once: true });
  });

async function analyse(
  req: ResolvedDataRequest,
  engine: YaraEngine,
  options: RunYaraOptions,
  deadline = Number.POSITIVE_INFINITY,
): Promise<YaraDataElement[]> {
  switch (req.operation) {
    case 'run_community_rules': {
      const rules = await resolveCommunity(options.community);
      return [await scanData(engine, rules, req.testData, 'community', options, deadline)];
    }
    case 'run_rule': {
      const outcome = await engine.compile({
        sources: req.rule,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (outcome.kind === 'failed') {
        const metadata = metadataInsight(diagnosticsText(outcome.warnings), req.rule);
        return [errorInsight(diagnosticsText(outcome.errors)), metadata];
      }
      const metadata = metadataInsight(diagnosticsText(outcome.rules.warnings), req.rule);
      return [await scanData(engine, outcome.rules, req.testData, 'custom', options, deadline), metadata];
    }
    default:
      return req satisfies never;
  }
}

/** The scan's own timeout, within what is left of the request's limit (yara-x counts whole seconds). */
function scanTimeout(engine: YaraEngine, options: RunYaraOptions, deadline: number): number {
  const own = options.timeoutMs ?? engine.options.scanTimeoutMs;
  const left = Math.ceil(Math.max(1000, deadline - performance.now()));
  return Math.min(own, left);
}

async function scanData(
  engine: YaraEngine,
  rules: CompiledRuleSet,
  testData: string,
  shape: RowShape,
  options: RunYaraOptions,
  deadline: number,
): Promise<YaraDataElement> {
  const timeoutMs = scanTimeout(engine, options, deadline);
  const outcome: ScanOutcome = await engine.scan({
    rules,
    target: { bytes: decodeBase64Shared(testData) },
    timeoutMs,
    ...(options.variables ? { variables: options.variables } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  switch (outcome.kind) {
    case 'matched': {
      if (outcome.matches.length === 0) return { message: NO_MATCH_MESSAGE };
      const columns = shape === 'community' ? COMMUNITY_COLUMNS : CUSTOM_COLUMNS;
      const title = shape === 'community' ? COMMUNITY_TABLE_TITLE : CUSTOM_TABLE_TITLE;
      return tableInsight(title, [
        [...columns],
        ...outcome.matches.map((m) => matchRow(shape, TEST_DATA_LABEL, m)),
      ]);
    }
    case 'timeout':
      return errorInsight(timeoutMessage(outcome.timeoutMs));
    case 'failed':
      return errorInsight(`Yara scan failed: ${outcome.message}`);
    default:
      return outcome satisfies never;
  }
}
