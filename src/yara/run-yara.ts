/**
 * `runYara`: POST /analysis/yara/data as a function. Request errors throw TaeError with the
 * spec's status and a plain-text body; everything that goes wrong during the analysis
 * (compiler errors, timeouts, oversized data) comes back as an Error element, status 200.
 */
import type { NativeVariables } from '../../native/yara-x.js';
import { base64ByteLength } from '../base64/index.js';
import { checkOptionKeys, invalidOption } from '../errors/index.js';
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
  timeoutMessage,
  type YaraDataElement,
  type YaraDataResponse,
} from './insights.js';
import { checkVariables } from './options.js';
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
  readonly timeoutMs?: number;
  /** Scan-time values of external variables the rules declare. */
  readonly variables?: NativeVariables;
  readonly signal?: AbortSignal;
}

const KNOWN_OPTIONS: Record<keyof RunYaraOptions, true> = {
  community: true,
  engine: true,
  maxTestDataBytes: true,
  timeoutMs: true,
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
 */
export async function runYara(
  request: YaraDataRequest,
  options: RunYaraOptions = {},
): Promise<YaraDataResponse> {
  checkOptionKeys(options, KNOWN_OPTIONS);
  const req = resolveDataRequest(request);
  const maxBytes = options.maxTestDataBytes ?? MAX_TEST_DATA_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 0)
    throw invalidOption('maxTestDataBytes', 'a non-negative integer', maxBytes);
  checkVariables('variables', options.variables);
  const engine = options.engine ?? defaultYaraEngine();
  const tail = req.operation === 'run_rule' ? () => metadataInsight('', req.rule) : null;
  const size = base64ByteLength(req.testData);
  if (size > maxBytes) {
    const tooLarge = errorInsight(`Test data is ${size} bytes, over the ${maxBytes}-byte limit`);
    return { results: tail ? [tooLarge, tail()] : [tooLarge] };
  }
  return { results: await analyse(req, engine, options) };
}

async function analyse(
  req: ResolvedDataRequest,
  engine: YaraEngine,
  options: RunYaraOptions,
): Promise<YaraDataElement[]> {
  switch (req.operation) {
    case 'run_community_rules': {
      const rules = await resolveCommunity(options.community);
      return [await scanData(engine, rules, req.testData, 'community', options)];
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
      return [await scanData(engine, outcome.rules, req.testData, 'custom', options), metadata];
    }
    default:
      return req satisfies never;
  }
}

async function scanData(
  engine: YaraEngine,
  rules: CompiledRuleSet,
  testData: string,
  shape: RowShape,
  options: RunYaraOptions,
): Promise<YaraDataElement> {
  const outcome: ScanOutcome = await engine.scan({
    rules,
    target: { bytes: decodeBase64Shared(testData) },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
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
