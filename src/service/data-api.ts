/**
 * The endpoints without jobs: Sigma and YARA over supplied data, rule retrieval and lookup.
 * A token is optional; one that is sent must be issued (else 401). The analysis modules raise
 * the spec's messages themselves; here they are stamped with the endpoint and its body format.
 */
import { isTaeError, TaeError } from '../errors/index.js';
import { type LookupRequest, type LookupResult, lookup as lookupRows } from '../lookup/index.js';
import { runSigma, type SigmaDataRequest, type SigmaDataResponse } from '../sigma/index.js';
import { runYara, type YaraDataRequest, type YaraDataResponse } from '../yara/index.js';
import type { Community } from './community.js';
import type { ServiceContext } from './context.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { endpointError, rowsOf } from './error-table.js';
import type { Auth } from './types.js';

export interface RuleNamesRequest {
  readonly rule_names?: unknown;
}

export interface RuleLinesResponse {
  readonly results: Readonly<Record<string, readonly string[]>>;
}

function identify(s: ServiceContext, endpoint: Endpoint, auth: Auth): void {
  s.callers.identify(auth.token, { unknown: () => endpointError(`${endpoint}.unauthorized`) });
}

/** A request error raised by an analysis module, as this endpoint answers it. */
function stamped<R>(endpoint: Endpoint, run: () => R): R {
  try {
    return run();
  } catch (e) {
    throw restamp(endpoint, e);
  }
}

/** The endpoint's table row with the same status and message, else the message as raised. */
function restamp(endpoint: Endpoint, e: unknown): unknown {
  if (!isTaeError(e) || e.status >= 500) return e;
  const row = Object.entries(rowsOf(endpoint)).find(
    ([, r]) => r.status === e.status && r.message === e.message,
  );
  if (row !== undefined) return endpointError(`${endpoint}.${row[0]}`, {}, e);
  return new TaeError(e.code, e.message, {
    status: e.status,
    bodyFormat: ENDPOINTS[endpoint].bodyFormat,
    context: { ...e.context, endpoint },
    cause: e,
  });
}

export async function sigmaData(
  s: ServiceContext,
  community: Community,
  request: SigmaDataRequest,
  auth: Auth,
): Promise<SigmaDataResponse> {
  identify(s, 'sigmaData', auth);
  const body = (request ?? {}) as Parameters<typeof runSigma>[0];
  const rules = body.operation === 'run_community_rules' ? await community.sigma() : undefined;
  return stamped('sigmaData', () => runSigma(body, rules ? { community: rules.dataMatcher } : {}));
}

export async function yaraData(
  s: ServiceContext,
  community: Community,
  request: YaraDataRequest,
  auth: Auth,
): Promise<YaraDataResponse> {
  identify(s, 'yaraData', auth);
  try {
    return await runYara(request, { community: () => community.yara() });
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
  return stamped('lookup', () => lookupRows(request));
}
