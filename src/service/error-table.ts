/**
 * Every error the interface answers, one row per (endpoint, condition), mirroring the spec's
 * "Messages by endpoint". The engine raises errors only through this table, and the tests walk
 * it. `origin` says where a row comes from: `spec` (status and text as the spec gives them),
 * `ours` (a condition the spec leaves open; see README "Interface decisions"), or `transport`
 * (listed by the spec but produced by an HTTP front, not by the in-process engine).
 * Messages may hold `{placeholders}` filled from the raising call.
 */
import { type ErrorCode, NO_SPACE_TEXT, TaeError } from '../errors/index.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';

export interface ErrorRow {
  readonly endpoint: Endpoint;
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  readonly origin: 'spec' | 'ours' | 'transport';
}

const INTERNAL_TEXT =
  'An internal error occurred. You may report it via the feedback form, quoting error id {error_id}.';

/** A row before it is keyed: status, code, message (with placeholders), origin. */
type RowSpec = readonly [number, ErrorCode, string, ErrorRow['origin']];
/** The rows of endpoint `E`, keyed `<endpoint>.<slug>` at the type level too. */
type RowsOf<E extends Endpoint, R> = { readonly [K in keyof R & string as `${E}.${K}`]: ErrorRow };

function r<E extends Endpoint, const R extends Readonly<Record<string, RowSpec>>>(
  endpoint: E,
  rows: R,
): RowsOf<E, R> {
  const keyed: Record<string, ErrorRow> = Object.fromEntries(
    Object.entries(rows).map(([slug, [status, code, message, origin]]) => [
      `${endpoint}.${slug}`,
      { endpoint, status, code, message, origin },
    ]),
  );
  return keyed as RowsOf<E, R>; // fromEntries cannot type computed keys; the map builds exactly these
}

const UNAUTHORIZED = [401, 'UNAUTHORIZED', 'Unauthorized', 'spec'] as const;
const KEY_REQUIRED_OURS = [403, 'FORBIDDEN', 'Encryption key required', 'ours'] as const;
// A key was sent but does not open the caller's private data: the spec's upload text for it.
const KEY_WRONG = 'X-Service-Api-Enc-Key is invalid';
const KEY_WRONG_OURS = [403, 'FORBIDDEN', KEY_WRONG, 'ours'] as const;
const INTERNAL_SPEC = [500, 'INTERNAL', INTERNAL_TEXT, 'spec'] as const;
const INTERNAL_OURS = [500, 'INTERNAL', INTERNAL_TEXT, 'ours'] as const;
const BAD_REQUEST = [400, 'INVALID_ARGUMENT', 'Invalid request: {details}', 'ours'] as const;
// The spec lists no status for a full disk: 507 Insufficient Storage (RFC 4918), on every
// endpoint that writes to the data directory (README "Interface decisions").
const NO_SPACE = [507, 'NO_SPACE', NO_SPACE_TEXT, 'ours'] as const;

function fileJobRows<E extends Endpoint, const X extends Readonly<Record<string, RowSpec>>>(
  endpoint: E,
  tooLarge: string,
  extra: X,
) {
  return r(endpoint, {
    noFileIds: [400, 'INVALID_ARGUMENT', 'No file IDs provided', 'spec'],
    tooManyFileIds: [
      400,
      'INVALID_ARGUMENT',
      'Too many file IDs provided',
      endpoint === 'createParseJob' ? 'spec' : 'ours',
    ],
    tooLarge: [400, 'INVALID_ARGUMENT', tooLarge, 'spec'],
    downloadFailed: [400, 'INVALID_ARGUMENT', 'Failed to download file', 'spec'],
    badRequest: BAD_REQUEST,
    unauthorized: UNAUTHORIZED,
    // The spec lists no 403 for the job-creation endpoints: their key errors are 400s.
    keyRequired: [400, 'FORBIDDEN', 'Encryption key required', 'ours'],
    keyWrong: [400, 'FORBIDDEN', KEY_WRONG, 'ours'],
    payloadTooLarge: [413, 'TOO_LARGE', 'Payload too large', 'transport'],
    ...extra,
    noSpace: NO_SPACE,
    internal: INTERNAL_OURS,
  });
}

const RULE_REQUIRED = [422, 'VALIDATION_FAILED', 'Rule is required', 'ours'] as const;

const ROW_TABLE = Object.freeze({
  ...r('upload', {
    badMultipart: [400, 'INVALID_ARGUMENT', 'Failed to process multipart form: {details}', 'spec'],
    keyRequired: [400, 'INVALID_ARGUMENT', 'Encryption key is required', 'spec'],
    badToken: [400, 'INVALID_ARGUMENT', 'X-Service-Api-Token must be a valid UUID v4', 'spec'],
    badKey: [400, 'INVALID_ARGUMENT', 'X-Service-Api-Enc-Key is invalid', 'spec'],
    unauthorized: [401, 'UNAUTHORIZED', 'Unauthorized', 'ours'],
    timeout: [408, 'TIMEOUT', 'Upload timed out', 'spec'],
    tooLarge: [413, 'TOO_LARGE', 'File too large: {name} exceeds the 250 MB limit', 'spec'],
    noSpace: NO_SPACE,
    internal: INTERNAL_SPEC,
  }),
  ...fileJobRows('createParseJob', 'Max EVTX analysis size limit exceeded (1GB)', {}),
  ...r('search', {
    // 400 `Job not found`: the job exists but has no event index (not a parse job); 404: no
    // job the caller may see has this id (see search-api.ts).
    jobNotFound: [400, 'INVALID_ARGUMENT', 'Job not found', 'spec'],
    notCompleted: [400, 'INVALID_ARGUMENT', 'Job not completed', 'spec'],
    badTimeRange: [400, 'INVALID_ARGUMENT', 'Invalid time range', 'spec'],
    badRequest: BAD_REQUEST,
    unauthorized: UNAUTHORIZED,
    keyRequired: [403, 'FORBIDDEN', 'Encryption key required', 'spec'],
    // The spec fixes this 403's text: a wrong key is told apart only by `context.key`.
    keyWrong: [403, 'FORBIDDEN', 'Encryption key required', 'spec'],
    notFound: [404, 'NOT_FOUND', 'Job not found', 'spec'],
    internal: INTERNAL_OURS,
  }),
  ...fileJobRows('createYaraFileJob', 'Max File analysis size limit exceeded (250MB)', {
    ruleRequired: RULE_REQUIRED,
    rateLimited: [429, 'RATE_LIMITED', 'Rate limit exceeded', 'transport'],
  }),
  ...fileJobRows('createSigmaFileJob', 'Max Sigma File analysis size limit exceeded (1GB)', {
    ruleRequired: RULE_REQUIRED,
  }),
  ...r('yaraData', {
    badData: [400, 'INVALID_ARGUMENT', 'Invalid test data format', 'spec'],
    badOperation: [400, 'INVALID_ARGUMENT', 'Invalid operation', 'ours'],
    unauthorized: UNAUTHORIZED,
    ruleRequired: [422, 'VALIDATION_FAILED', 'Rule is required', 'spec'],
    // The community rules' library is indexed into the data directory on first use.
    noSpace: NO_SPACE,
  }),
  ...r('sigmaData', {
    badData: [400, 'INVALID_ARGUMENT', 'Invalid test data format', 'spec'],
    badOperation: [400, 'INVALID_ARGUMENT', 'Invalid operation', 'ours'],
    unauthorized: UNAUTHORIZED,
    ruleRequired: [422, 'VALIDATION_FAILED', 'Rule is required', 'spec'],
    // The community rules' library is indexed into the data directory on first use.
    noSpace: NO_SPACE,
  }),
  ...r('yaraRules', {
    badNames: [400, 'INVALID_ARGUMENT', 'Invalid rule names provided', 'spec'],
    unauthorized: [401, 'UNAUTHORIZED', 'Unauthorized', 'ours'],
    notFound: [404, 'NOT_FOUND', 'One or more rules not found', 'spec'],
    noSpace: NO_SPACE,
    internal: INTERNAL_SPEC,
  }),
  ...r('sigmaRules', {
    badNames: [400, 'INVALID_ARGUMENT', 'Invalid rule names provided', 'spec'],
    unauthorized: [401, 'UNAUTHORIZED', 'Unauthorized', 'ours'],
    notFound: [404, 'NOT_FOUND', 'One or more rules not found', 'spec'],
    noSpace: NO_SPACE,
    internal: INTERNAL_SPEC,
  }),
  ...r('lookup', {
    unknownModule: [400, 'INVALID_ARGUMENT', 'Unknown lookup module', 'spec'],
    unauthorized: UNAUTHORIZED,
    invalid: [422, 'VALIDATION_FAILED', 'Validation failed', 'spec'],
  }),
  ...r('getJob', {
    unauthorized: UNAUTHORIZED,
    keyRequired: [403, 'FORBIDDEN', 'Encryption key required', 'spec'],
    keyWrong: KEY_WRONG_OURS,
    notFound: [404, 'NOT_FOUND', 'Job {job_id} not found', 'spec'],
    // A poll with the key re-arms a job a restart left waiting for it: a write.
    noSpace: NO_SPACE,
    internal: INTERNAL_SPEC,
  }),
  ...r('listJobs', { unauthorized: UNAUTHORIZED, internal: INTERNAL_SPEC }),
  ...r('listFiles', {
    unauthorized: UNAUTHORIZED,
    internal: [500, 'INTERNAL', 'Internal server error', 'spec'],
  }),
  ...r('deleteJobs', {
    badId: [400, 'INVALID_ARGUMENT', 'Invalid job ID format', 'spec'],
    tooManyIds: [400, 'INVALID_ARGUMENT', 'Too many job IDs provided', 'ours'],
    unauthorized: UNAUTHORIZED,
    notFound: [404, 'NOT_FOUND', 'Job ID not found', 'spec'],
    noSpace: NO_SPACE,
    internal: INTERNAL_OURS,
  }),
  ...r('deleteFiles', {
    badId: [400, 'INVALID_ARGUMENT', 'Invalid file ID format', 'spec'],
    tooManyIds: [400, 'INVALID_ARGUMENT', 'Too many file IDs provided', 'ours'],
    unauthorized: UNAUTHORIZED,
    notFound: [404, 'NOT_FOUND', 'File not found', 'spec'],
    noSpace: NO_SPACE,
    internal: INTERNAL_OURS,
  }),
  ...r('cancelJob', {
    badId: [400, 'INVALID_ARGUMENT', 'Invalid job ID format', 'ours'],
    unauthorized: [401, 'UNAUTHORIZED', 'Unauthorized', 'ours'],
    keyRequired: KEY_REQUIRED_OURS,
    keyWrong: KEY_WRONG_OURS,
    notFound: [404, 'NOT_FOUND', 'Job ID not found', 'ours'],
    noSpace: NO_SPACE,
    internal: INTERNAL_OURS,
  }),
}) satisfies Readonly<Record<string, ErrorRow>>;

/** The table as published: readable by any string (a release's interface, README "Versioning"). */
export const ERROR_ROWS: Readonly<Record<string, ErrorRow>> = ROW_TABLE;

/** Every row's id, `<endpoint>.<slug>`: a renamed or missing row fails to compile. */
export type ErrorRowId = keyof typeof ROW_TABLE;
/** The slugs of endpoint `E`'s rows. */
export type ErrorSlug<E extends Endpoint> = ErrorRowId extends infer I
  ? I extends `${E}.${infer S}`
    ? S
    : never
  : never;
/** A row id, or the 500 and the 507 every endpoint answers (see fallbackRow). */
export type RaisedRowId = ErrorRowId | `${Endpoint}.${FallbackSlug}`;

/** The endpoints that have every row named in `S`. */
export type EndpointWith<S extends string> = {
  [E in Endpoint]: [S] extends [ErrorSlug<E>] ? E : never;
}[Endpoint];

/** Whether `id` names a row (for ids built from a slug only some endpoints have). */
export const isErrorRowId = (id: string): id is ErrorRowId => Object.hasOwn(ROW_TABLE, id);

/** The id of row `slug` of `endpoint`, checked: the endpoint (each of a union) must have it. */
export const rowId = <S extends string>(endpoint: EndpointWith<S>, slug: S): ErrorRowId =>
  `${endpoint}.${slug}` as ErrorRowId; // EndpointWith<S> guarantees the row exists

/**
 * Why a request has no usable encryption key: none sent, one not in the key format, or a
 * well-formed one that is not the token's. Key errors carry it as `context.key`, and the HTTP
 * answer as the header `X-Service-Api-Enc-Key-Error`, because the spec fixes the text of some
 * of them (search's 403 reads `Encryption key required` whatever happened).
 */
export type KeyProblem = 'missing' | 'invalid' | 'wrong';
export const KEY_ERROR_HEADER = 'X-Service-Api-Enc-Key-Error';

/** The `keyRequired` (nothing sent) or `keyWrong` row of an endpoint, carrying the problem. */
export const keyError = (endpoint: EndpointWith<'keyRequired' | 'keyWrong'>, problem: KeyProblem): TaeError =>
  endpointError(rowId(endpoint, problem === 'missing' ? 'keyRequired' : 'keyWrong'), { key: problem });

/** Slugs every endpoint answers, with a row of its own or else the same in its body format. */
type FallbackSlug = 'internal' | 'noSpace';
const FALLBACKS: Readonly<Record<FallbackSlug, RowSpec>> = { internal: INTERNAL_OURS, noSpace: NO_SPACE };

/**
 * An endpoint the spec lists no 500 for still answers an unexpected failure with the same
 * text and an error id, in its own body format (never a TypeError for a missing row); one that
 * has no reason to write (a lookup, a list) still answers a full disk with the 507.
 */
function fallbackRow(id: RaisedRowId): ErrorRow | undefined {
  const dot = id.lastIndexOf('.');
  const [endpoint, slug] = [id.slice(0, dot), id.slice(dot + 1)];
  if (!Object.hasOwn(ENDPOINTS, endpoint) || !Object.hasOwn(FALLBACKS, slug)) return undefined;
  const [status, code, message, origin] = FALLBACKS[slug as FallbackSlug];
  return { endpoint: endpoint as Endpoint, status, code, message, origin };
}

/** Placeholder values longer than this are cut, so hostile input cannot bloat a message. */
const MAX_VALUE = 200;

/** The error of row `id`, with status, exact message and body format; `vars` fill placeholders. */
export function endpointError(
  id: RaisedRowId,
  vars: Readonly<Record<string, string>> = {},
  cause?: unknown,
): TaeError {
  const row = ERROR_ROWS[id] ?? fallbackRow(id);
  if (row === undefined) throw new TypeError(`no error row ${id}`);
  const safe = Object.fromEntries(
    Object.entries(vars).map(([k, v]) => [k, v.length > MAX_VALUE ? `${v.slice(0, MAX_VALUE)}…` : v]),
  );
  const message = row.message.replace(/\{(\w+)\}/g, (_, k: string) => safe[k] ?? '');
  return new TaeError(row.code, message, {
    status: row.status,
    bodyFormat: ENDPOINTS[row.endpoint].bodyFormat,
    context: { endpoint: row.endpoint, row: id, ...safe },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The ids of one endpoint's rows. */
export const rowIdsOf = (endpoint: Endpoint): ErrorRowId[] =>
  Object.keys(ROW_TABLE).filter((id): id is ErrorRowId => id.startsWith(`${endpoint}.`) && isErrorRowId(id));

export interface ErrorResponse {
  readonly status: number;
  readonly contentType: 'application/json' | 'text/plain; charset=utf-8';
  readonly body: string;
  /** Only on key errors: `X-Service-Api-Enc-Key-Error: missing | invalid | wrong`. */
  readonly headers?: Readonly<Record<string, string>>;
}

const KEY_PROBLEMS: ReadonlySet<unknown> = new Set<KeyProblem>(['missing', 'invalid', 'wrong']);

/** The HTTP answer for an error: JSON `{ error }` or the plain message, per its body format. */
export function errorResponse(e: TaeError): ErrorResponse {
  const answer: ErrorResponse =
    e.bodyFormat === 'json'
      ? { status: e.status, contentType: 'application/json', body: JSON.stringify({ error: e.message }) }
      : { status: e.status, contentType: 'text/plain; charset=utf-8', body: e.message };
  return KEY_PROBLEMS.has(e.context.key)
    ? { ...answer, headers: { [KEY_ERROR_HEADER]: String(e.context.key) } }
    : answer;
}
