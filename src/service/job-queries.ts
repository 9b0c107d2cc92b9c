/**
 * Job status, list, delete and cancel. Reading a private job needs its owner's token and key;
 * a poll with the key also re-arms a private job that a restart left waiting for it.
 */
import { formatTime } from '../analysis/index.js';
import { isUuid } from '../crypto/index.js';
import { decodeResult } from '../jobs/index.js';
import type { JobRow } from '../store/index.js';
import type { Caller } from './callers.js';
import type { ServiceContext } from './context.js';
import { type ErrorSlug, endpointError, keyError } from './error-table.js';
import { removeJobs } from './removal.js';
import type {
  Auth,
  DeleteRequest,
  JobListResponse,
  JobRequest,
  JobStatusResponse,
  MessageResponse,
} from './types.js';
import { idList, isRecord } from './validate.js';

const jobIdOf = (request: unknown): unknown => (isRecord(request) ? request.job_id : undefined);

/**
 * The owner key a private job needs from this caller (null for a public job), or the
 * endpoint's key error: `keyRequired` when no key was sent, `keyWrong` when the one sent does
 * not open the token's data, each carrying `context.key`.
 */
export async function keyFor(
  s: ServiceContext,
  row: JobRow,
  caller: Caller,
  encKey: string | undefined,
  endpoint: 'getJob' | 'search' | 'cancelJob',
): Promise<Buffer | null> {
  if (row.visibility === 'public') return null;
  if (!s.callers.hasKey(encKey)) throw keyError(endpoint, 'missing');
  const got = await s.callers.ownerKey(caller, encKey, false);
  if (!got.ok) throw keyError(endpoint, got.problem);
  return got.key;
}

export async function getJob(s: ServiceContext, request: JobRequest, auth: Auth): Promise<JobStatusResponse> {
  const caller = s.callers.identify(auth.token, { unknown: () => endpointError('getJob.unauthorized') });
  const raw = jobIdOf(request);
  const notFound = () =>
    endpointError('getJob.notFound', { job_id: typeof raw === 'string' ? raw : String(raw) });
  let row = isUuid(raw) ? s.store.jobs.get(raw.toLowerCase()) : null;
  if (row === null || (row.visibility === 'private' && row.owner !== caller.owner)) throw notFound();
  const ownerKey = await keyFor(s, row, caller, auth.encKey, 'getJob');
  if (row.status === 'Processing') {
    // A job that ended on a full disk before its outcome could be written: written now, or
    // this poll meets the full disk (507) rather than waiting on a job that no longer runs.
    s.scheduler.writeUnwritten(row.id);
    row = s.store.jobs.get(row.id) ?? row;
  }
  if (ownerKey !== null && row.needsKey) {
    s.scheduler.arm(row, ownerKey);
    row = s.store.jobs.get(row.id) ?? row;
  }
  const base = { id: row.id, job_name: row.name, status: row.status };
  if (row.status !== 'Completed' && row.status !== 'Failed') return base;
  const body = s.store.jobs.result(row.id);
  return { ...base, insights: body === null ? [] : decodeResult(row, body, ownerKey) };
}

export async function listJobs(s: ServiceContext, auth: Auth): Promise<JobListResponse> {
  const unauthorized = () => endpointError('listJobs.unauthorized');
  const caller = s.callers.identify(auth.token, { unknown: unauthorized, missing: unauthorized });
  return {
    jobs: s.store.jobs
      .listByOwner(caller.owner!)
      .map((j) => [j.id, j.name, j.status, `${formatTime(j.createdAt)} UTC`, j.visibility, j.type]),
  };
}

export async function deleteJobs(
  s: ServiceContext,
  request: DeleteRequest,
  auth: Auth,
): Promise<MessageResponse> {
  const E = (slug: ErrorSlug<'deleteJobs'>) => () => endpointError(`deleteJobs.${slug}`);
  const caller = s.callers.identify(auth.token, { unknown: E('unauthorized'), missing: E('unauthorized') });
  const ids = idList(isRecord(request) ? request.ids : undefined, s.limits.maxIdsPerRequest, {
    empty: E('badId'),
    tooMany: E('tooManyIds'),
    bad: E('badId'),
  });
  // The owner's delete and the retention sweep share one removal: rows, indexes, space.
  if (removeJobs(s, ids, (j) => j !== null && j.owner === caller.owner) !== null) throw E('notFound')();
  return { message: `${ids.length} job${ids.length === 1 ? '' : 's'} deleted` };
}

export async function cancelJob(
  s: ServiceContext,
  request: JobRequest,
  auth: Auth,
): Promise<MessageResponse> {
  const E = (slug: ErrorSlug<'cancelJob'>) => () => endpointError(`cancelJob.${slug}`);
  const caller = s.callers.identify(auth.token, { unknown: E('unauthorized'), missing: E('unauthorized') });
  const raw = jobIdOf(request);
  if (!isUuid(raw)) throw E('badId')();
  const row = s.store.jobs.get(raw.toLowerCase());
  if (row === null || row.owner !== caller.owner) throw E('notFound')();
  const ownerKey = await keyFor(s, row, caller, auth.encKey, 'cancelJob');
  const outcome = s.scheduler.cancel(row, ownerKey);
  if (outcome === 'cancelled') return { message: 'Job cancelled' };
  const status = s.store.jobs.get(row.id)?.status ?? row.status;
  return { message: `Job already ${status.toLowerCase()}` };
}
