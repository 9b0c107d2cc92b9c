/**
 * The endpoints without jobs: Sigma and YARA over supplied data, rule retrieval and lookup.
 * A token is optional; one that is sent must be issued (else 401). The analysis modules raise
 * the spec's messages themselves; here they are stamped with the endpoint and its body format.
 * Sigma and YARA over supplied data run in worker threads with a time limit per request, so the
 * event loop stays free for every other caller.
 */
import { isNoSpace, isTaeError, TaeError } from '../errors/index.js';
import { type LookupRequest, type LookupResult, lookupSync } from '../lookup/index.js';
import type { SigmaDataRequest, SigmaDataResponse } from '../sigma/index.js';
import { runYara, type YaraDataRequest, type YaraDataResponse } from '../yara/index.js';
import type { Community } from './community.js';
import type { ServiceContext } from './context.js';
import {
  type CommunitySigmaTexts,
  type DataPool,
  refusedError,
  type SigmaTask,
  seconds,
} from './data-pool.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { type EndpointWith, ERROR_ROWS, endpointError, rowId, rowIdsOf } from './error-table.js';
import type { Auth } from './types.js';

export interface RuleNamesRequest {
  readonly rule_names?: unknown;
}

export interface RuleLinesResponse {
  readonly results: Readonly<Record<string, readonly string[]>>;
}

function identify(s: ServiceContext, endpoint: EndpointWith<'unauthorized'>, auth: Auth): void {
  s.callers.identify(auth.token, { unknown: () => endpointError(rowId(endpoint, 'unauthorized')) });
}

/** A request error raised by an analysis module, as this endpoint answers it. */
function stamped<R>(endpoint: Endpoint, run: () => R): R {
  try {
    return run();
  } catch (e) {
    throw restamp(endpoint, e);
  }
}

/**
 * The endpoint's table row with the same status and message, else the message as raised. A
 * full disk under a module's own code (the rule library's `INPUT_UNREADABLE`) is the engine's
 * 507, not the module's answer.
 */
function restamp(endpoint: Endpoint, e: unknown): unknown {
  if (!isTaeError(e) || e.status >= 500 || isNoSpace(e)) return e;
  const id = rowIdsOf(endpoint).find(
    (i) => ERROR_ROWS[i]?.status === e.status && ERROR_ROWS[i].message === e.message,
  );
  if (id !== undefined) return endpointError(id, {}, e);
  return new TaeError(e.code, e.message, {
    status: e.status,
    bodyFormat: ENDPOINTS[endpoint].bodyFormat,
    context: { ...e.context, endpoint },
    cause: e,
  });
}

/** A request field as a worker gets it: strings as sent, anything else null (refused alike, always cloneable). */
const textField = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function sigmaTask(request: unknown, community: CommunitySigmaTexts | undefined): SigmaTask {
  const body =
    request !== null && typeof request === 'object'
      ? (request as Record<'test_data' | 'operation' | 'rule', unknown>)
      : null;
  const fields = body && {
    test_data: textField(body.test_data),
    operation: textField(body.operation),
    rule: textField(body.rule),
  };
  return { request: fields, ...(community ? { community } : {}) };
}

/** Evaluated in the data pool; cut at the pool's time limit with an in-band Error. */
export async function sigmaData(
  s: ServiceContext,
  community: Community,
  pool: DataPool,
  request: SigmaDataRequest,
  auth: Auth,
): Promise<SigmaDataResponse> {
  const deadline = pool.deadline();
  identify(s, 'sigmaData', auth);
  const operation = (request as { operation?: unknown } | null)?.operation;
  const rules = operation === 'run_community_rules' ? await community.sigmaTexts() : undefined;
  const outcome = await pool.sigma(sigmaTask(request, rules), deadline);
  switch (outcome.kind) {
    case 'done':
      return outcome.response;
    case 'refused':
      throw restamp('sigmaData', refusedError(outcome));
    case 'timeout':
      return { results: [{ type: 'Error', message: sigmaTimeLimitMessage(pool.timeLimitMs) }] };
    case 'out-of-memory':
      return { results: [{ type: 'Error', message: SIGMA_OUT_OF_MEMORY_MESSAGE }] };
    default:
      return outcome satisfies never;
  }
}

export const sigmaTimeLimitMessage = (ms: number): string =>
  `Sigma evaluation stopped after ${seconds(ms)}: the request exceeded the data endpoint's time limit`;
export const SIGMA_OUT_OF_MEMORY_MESSAGE = 'Sigma evaluation stopped: the request ran out of memory';

export async function yaraData(
  s: ServiceContext,
  community: Community,
  pool: DataPool,
  request: YaraDataRequest,
  auth: Auth,
): Promise<YaraDataResponse> {
  identify(s, 'yaraData', auth);
  try {
    return await runYara(request, { community: () => community.yara(), timeLimitMs: pool.timeLimitMs });
  } catch (e) {
    throw restamp('yaraData', e);
  }
}

export async function ruleLines(
  s: ServiceContext,
  community: Community,
  kind: 'sigma' | 'yara',
  request: RuleNamesRequest,
  auth: Auth,
): Promise<RuleLinesResponse> {
  const endpoint = kind === 'sigma' ? 'sigmaRules' : 'yaraRules';
  identify(s, endpoint, auth);
  const library = await community.rules();
  return stamped(endpoint, () => library.get(kind, request?.rule_names as string[]));
}

export function lookup(s: ServiceContext, request: LookupRequest, auth: Auth): LookupResult {
  identify(s, 'lookup', auth);
  return stamped('lookup', () => lookupSync(request));
}
