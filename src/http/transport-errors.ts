/**
 * Errors only an HTTP front meets: an unreadable body, a body too large, a wrong method, an
 * unknown path. Each uses the endpoint's row of the error table where one exists (e.g.
 * `createParseJob.payloadTooLarge`, `upload.badMultipart`, `upload.timeout`), else the same
 * status and text pattern in the endpoint's body format (README "Interface decisions").
 */
import { randomUUID } from 'node:crypto';
import { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
import {
  ENDPOINTS,
  type Endpoint,
  ERROR_ROWS,
  type ErrorSlug,
  endpointError,
  isErrorRowId,
} from '../service/index.js';

const MAX_DETAILS = 200;

/** A slug some endpoint has. */
type Slug = ErrorSlug<Endpoint>;

function rowOr(
  endpoint: Endpoint,
  slug: Slug,
  vars: Record<string, string>,
  fallback: readonly [number, ErrorCode, string],
): TaeError {
  const id = `${endpoint}.${slug}`;
  return isErrorRowId(id) ? endpointError(id, vars) : inFormatOf(endpoint, vars, fallback);
}

/** An error no row lists, in the endpoint's body format. */
function inFormatOf(
  endpoint: Endpoint,
  vars: Record<string, string>,
  [status, code, message]: readonly [number, ErrorCode, string],
): TaeError {
  return new TaeError(code, message, {
    status,
    bodyFormat: ENDPOINTS[endpoint].bodyFormat,
    context: { endpoint, ...vars },
  });
}

/** A body the endpoint cannot read: 400, `Invalid request: …` (upload: its multipart row). */
export function unreadableBody(endpoint: Endpoint, details: string): TaeError {
  const d = details.length > MAX_DETAILS ? `${details.slice(0, MAX_DETAILS)}…` : details;
  if (endpoint === 'upload') return endpointError('upload.badMultipart', { details: d });
  return rowOr(endpoint, 'badRequest', { details: d }, [400, 'INVALID_ARGUMENT', `Invalid request: ${d}`]);
}

export const payloadTooLarge = (endpoint: Endpoint): TaeError =>
  rowOr(endpoint, 'payloadTooLarge', {}, [413, 'TOO_LARGE', 'Payload too large']);

export const uploadTimedOut = (): TaeError => endpointError('upload.timeout');

export const rateLimited = (endpoint: Endpoint): TaeError =>
  rowOr(endpoint, 'rateLimited', {}, [429, 'RATE_LIMITED', 'Rate limit exceeded']);

export const hasRow = (endpoint: Endpoint, slug: Slug): boolean => isErrorRowId(`${endpoint}.${slug}`);

export const methodNotAllowed = (endpoint: Endpoint): TaeError =>
  inFormatOf(endpoint, {}, [405, 'INVALID_ARGUMENT', 'Method not allowed']);

/**
 * The client closed the connection before its request arrived whole: there is no one to
 * answer, and nothing went wrong here. Tagged with its endpoint, so the engine passes it
 * through rather than logging it as its own failure.
 */
export const clientGone = (endpoint: Endpoint): TaeError =>
  new TaeError('CANCELLED', 'the client closed the connection mid-request', {
    context: { endpoint, by: 'client' },
  });

export const isClientGone = (e: unknown): e is TaeError =>
  isTaeError(e) && e.code === 'CANCELLED' && e.context.by === 'client';

/** No endpoint has this path: JSON, the spec's default body format. */
export const routeNotFound = (): TaeError => new TaeError('NOT_FOUND', 'Not found', { status: 404 });

/** A Host header a loopback server does not answer (DNS rebinding). */
export const misdirected = (): TaeError => new TaeError('FORBIDDEN', 'Misdirected request', { status: 421 });

const INTERNAL_TEXT = ERROR_ROWS['upload.internal']!.message;

/** The endpoint's 500 with a fresh error id: its own row, else the same text in its body format. */
export function internalError(endpoint: Endpoint | null): TaeError {
  const errorId = randomUUID();
  const text = INTERNAL_TEXT.replace('{error_id}', errorId);
  if (endpoint !== null) return rowOr(endpoint, 'internal', { error_id: errorId }, [500, 'INTERNAL', text]);
  return new TaeError('INTERNAL', text, { status: 500, context: { error_id: errorId } });
}
