/**
 * Job creation, status, list, delete and cancel. A job created with a token and key is
 * private (input and results sealed under a job key, owner-only); otherwise it is public.
 * Another owner's private file or job answers exactly as a missing one would.
 */
import { decodeRuleText } from '../base64/index.js';
import { JOB_CATEGORY, type JobInput } from '../jobs/index.js';
import type { FileRow } from '../store/index.js';
import type { Caller } from './callers.js';
import type { ServiceContext } from './context.js';
import { type EndpointWith, type ErrorSlug, endpointError, keyError, rowId } from './error-table.js';
import type { Auth, FileJobRequest, JobCreated, ParseJobRequest } from './types.js';
import { idList, isRecord } from './validate.js';

type JobEndpoint = 'createParseJob' | 'createSigmaFileJob' | 'createYaraFileJob';

const rowError = <S extends string>(endpoint: EndpointWith<S>, slug: S, vars?: Record<string, string>) =>
  endpointError(rowId(endpoint, slug), vars);

/** Caller, ids, owner key and files of a job request, checked in the order the errors rank. */
async function admit(s: ServiceContext, endpoint: JobEndpoint, body: Record<string, unknown>, auth: Auth) {
  const E = (slug: ErrorSlug<'createParseJob'>) => () => rowError(endpoint, slug);
  const caller = s.callers.identify(auth.token, { unknown: E('unauthorized') });
  const ids = idList(body.file_ids, s.limits.maxIdsPerRequest, {
    empty: E('noFileIds'),
    tooMany: E('tooManyFileIds'),
    bad: E('downloadFailed'),
  });
  return { caller, ids };
}

async function resolveFiles(
  s: ServiceContext,
  endpoint: JobEndpoint,
  caller: Caller,
  ids: readonly string[],
  encKey: string | undefined,
  totalLimit: number,
): Promise<{ files: FileRow[]; ownerKey: Buffer | null }> {
  let ownerKey: Buffer | null = null;
  if (caller.kind === 'token' && s.callers.hasKey(encKey)) {
    const got = await s.callers.ownerKey(caller, encKey, true);
    if (!got.ok) throw keyError(endpoint, got.problem);
    ownerKey = got.key;
  }
  const files: FileRow[] = [];
  for (const id of ids) {
    const f = s.store.files.get(id);
    if (f === null || (f.visibility === 'private' && f.owner !== caller.owner)) {
      throw rowError(endpoint, 'downloadFailed');
    }
    if (f.visibility === 'private' && ownerKey === null) throw keyError(endpoint, 'missing');
    files.push(f);
  }
  const total = files.reduce((n, f) => n + f.size, 0);
  if (total > totalLimit) throw rowError(endpoint, 'tooLarge');
  return { files, ownerKey };
}

function submit(s: ServiceContext, caller: Caller, input: JobInput, ownerKey: Buffer | null): JobCreated {
  const row = s.scheduler.submit({ owner: caller.owner, priority: caller.priority, input, ownerKey });
  return {
    id: row.id,
    job_name: row.name,
    message: 'Job created and queued',
    category: JOB_CATEGORY[input.type],
  };
}

export async function createParseJob(
  s: ServiceContext,
  request: ParseJobRequest,
  auth: Auth,
): Promise<JobCreated> {
  const body: Record<string, unknown> = isRecord(request) ? request : {};
  const { caller, ids } = await admit(s, 'createParseJob', body, auth);
  if (typeof body.run_sigma_rules !== 'boolean') {
    throw rowError('createParseJob', 'badRequest', { details: 'run_sigma_rules must be a boolean' });
  }
  // Our field, optional: absent (or false), the job and its stored input are the spec's.
  if (body.run_yara_payloads !== undefined && typeof body.run_yara_payloads !== 'boolean') {
    throw rowError('createParseJob', 'badRequest', { details: 'run_yara_payloads must be a boolean' });
  }
  const { ownerKey } = await resolveFiles(
    s,
    'createParseJob',
    caller,
    ids,
    auth.encKey,
    s.limits.parseTotalBytes,
  );
  return submit(
    s,
    caller,
    {
      type: 'winevtx',
      file_ids: ids,
      run_sigma_rules: body.run_sigma_rules,
      ...(body.run_yara_payloads === true ? { run_yara_payloads: true as const } : {}),
    },
    ownerKey,
  );
}

async function createRuleJob(
  s: ServiceContext,
  endpoint: 'createSigmaFileJob' | 'createYaraFileJob',
  request: FileJobRequest,
  auth: Auth,
): Promise<JobCreated> {
  const body: Record<string, unknown> = isRecord(request) ? request : {};
  const { caller, ids } = await admit(s, endpoint, body, auth);
  const kind = endpoint === 'createSigmaFileJob' ? 'sigma' : 'yara';
  let input: JobInput;
  if (body.operation === 'run_community_rules') {
    input = { type: `${kind}_file_community`, file_ids: ids };
  } else if (body.operation === 'run_rule') {
    const rule = decodeRuleText(body.rule, {
      maxBytes: s.limits.maxRuleBytes,
      tooLarge: () =>
        rowError(endpoint, 'badRequest', { details: `rule exceeds ${s.limits.maxRuleBytes} bytes` }),
    });
    if (rule === null) throw rowError(endpoint, 'ruleRequired');
    input = { type: `${kind}_file_custom` as const, file_ids: ids, rule };
  } else {
    throw rowError(endpoint, 'badRequest', { details: 'operation must be run_rule or run_community_rules' });
  }
  const limit = kind === 'sigma' ? s.limits.sigmaTotalBytes : s.limits.yaraTotalBytes;
  const { ownerKey } = await resolveFiles(s, endpoint, caller, ids, auth.encKey, limit);
  return submit(s, caller, input, ownerKey);
}

export const createSigmaFileJob = (s: ServiceContext, request: FileJobRequest, auth: Auth) =>
  createRuleJob(s, 'createSigmaFileJob', request, auth);

export const createYaraFileJob = (s: ServiceContext, request: FileJobRequest, auth: Auth) =>
  createRuleJob(s, 'createYaraFileJob', request, auth);
