/**
 * `POST /analysis/winevtx/search`. Checks rank: 401 (an unissued token); the body (400
 * `Invalid time range`, or 400 `Invalid request: …` for any other malformed field); 404 `Job
 * not found` for an id no job has that the caller may see (as job status answers); 403
 * `Encryption key required` without the owner's key for a private job (a wrong key too: the
 * spec fixes the text, `context.key` tells them apart); 400 `Job not found` for a job that exists but
 * has no event index to search (not an EVTX parse job, or one completed before indexes
 * existed); 400 `Job not completed` while it is Pending or Processing, or when it Failed.
 */

import type { DescribeEvent } from '../analysis/index.js';
import { isUuid } from '../crypto/index.js';
import { isErrorInsight } from '../insights/index.js';
import { decodeResult } from '../jobs/index.js';
import { eventDescriber } from '../lookup/index.js';
import {
  checkSearchRequest,
  EventIndex,
  eventTable,
  rebuildInsights,
  type SearchResponse,
} from '../search/index.js';
import type { ServiceContext } from './context.js';
import { type ErrorSlug, endpointError } from './error-table.js';
import type { JobIndexes } from './job-indexes.js';
import { keyFor } from './job-queries.js';
import type { Auth } from './types.js';
import { isRecord } from './validate.js';

let describe: DescribeEvent | undefined;

export async function search(
  s: ServiceContext,
  indexes: JobIndexes,
  request: unknown,
  auth: Auth,
): Promise<SearchResponse> {
  const E = (slug: ErrorSlug<'search'>, vars?: Record<string, string>) =>
    endpointError(`search.${slug}`, vars);
  const caller = s.callers.identify(auth.token, { unknown: () => E('unauthorized') });
  const checked = checkSearchRequest(request);
  if (!checked.ok) {
    throw checked.problem === 'time_range'
      ? E('badTimeRange')
      : E('badRequest', { details: checked.details });
  }
  const q = checked.query;
  const raw: unknown = isRecord(request) ? request.job_id : undefined;
  const row = isUuid(raw) ? s.store.jobs.get(raw.toLowerCase()) : null;
  if (row === null || (row.visibility === 'private' && row.owner !== caller.owner)) throw E('notFound');
  const ownerKey = await keyFor(s, row, caller, auth.encKey, 'search');
  if (row.type !== 'winevtx') throw E('jobNotFound');
  if (row.status !== 'Completed') throw E('notCompleted');
  if (q.browseEvents) {
    return indexes.withIndex(row, ownerKey, (db) => {
      if (db === null) throw E('jobNotFound');
      return eventTable(EventIndex.of(db), q);
    });
  }
  // The rebuilt body keeps the job's Error insights (files it could not read).
  const body = s.store.jobs.result(row.id);
  const errors = body === null ? [] : decodeResult(row, body, ownerKey).filter(isErrorInsight);
  describe ??= eventDescriber();
  return indexes.withIndex(row, ownerKey, (db) => {
    if (db === null) throw E('jobNotFound');
    const insights = rebuildInsights(EventIndex.of(db), { start: q.start, end: q.end, describe: describe! });
    return {
      id: row.id,
      job_name: row.name,
      status: 'Completed' as const,
      insights: [...insights, ...errors],
    };
  });
}
