/**
 * The HTTP adapter: route, read the two headers and the body, call the Engine method named by
 * the route, write its answer. Every failure is a TaeError answered through the error table;
 * anything else is the endpoint's 500 with a fresh error id. A client that goes away
 * mid-request is no failure: it is reported as a client abort and not answered. No analysis
 * logic lives here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTaeError, type TaeError } from '../errors/index.js';
import type { Auth, Endpoint, Engine } from '../service/index.js';
import { dispatch, type PathParams } from './dispatch.js';
import { readJsonBody } from './json-body.js';
import { type HttpOptions, type ResolvedOptions, resolveOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { abandonBody } from './request-body.js';
import { sendError, sendJson } from './respond.js';
import { matchRoute, routeTable } from './routes.js';
import * as T from './transport-errors.js';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Endpoints whose JSON body carries Base64 test data. */
const DATA_ENDPOINTS: ReadonlySet<Endpoint> = new Set(['yaraData', 'sigmaData']);

interface Context {
  readonly engine: Engine;
  readonly o: ResolvedOptions;
  readonly routes: ReturnType<typeof routeTable>;
  readonly limiter: RateLimiter | null;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** A client-chosen path made safe for a one-line log: visible ASCII, at most 200 characters. */
const printable = (path: string): string => path.slice(0, 200).replace(/[^\x21-\x7e]/g, '?');

/** The Host header without its port (`[::1]:80` → `[::1]`); none (HTTP/1.0) passes. */
const hostAllowed = (allowed: ReadonlySet<string>, host: string | undefined): boolean =>
  host === undefined || allowed.has(host.toLowerCase().replace(/:\d*$/, ''));

async function answer<E extends Endpoint>(
  c: Context,
  req: IncomingMessage,
  endpoint: E,
  params: Readonly<Record<string, string>>,
) {
  const auth: Auth = { token: header(req, c.o.tokenHeader), encKey: header(req, c.o.keyHeader) };
  if (c.limiter !== null && T.hasRow(endpoint, 'rateLimited')) {
    if (!c.limiter.take(auth.token || (req.socket.remoteAddress ?? ''))) throw T.rateLimited(endpoint);
  }
  const limit = DATA_ENDPOINTS.has(endpoint) ? c.o.limits.dataJsonBytes : c.o.limits.jsonBytes;
  return dispatch(endpoint, {
    engine: c.engine,
    req,
    auth,
    // routes.ts fills exactly the names of the endpoint's path template
    params: params as PathParams<E>,
    limits: c.o.limits,
    // A GET body is ignored: left unread, it is request-body.ts's once the answer is sent.
    json: () => readJsonBody(req, endpoint, limit),
  });
}

async function handle(c: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let endpoint: Endpoint | null = null;
  const fail = (e: TaeError, headers?: Record<string, string>) =>
    sendError(req, res, e, c.o.headerPrefix, headers);
  try {
    if (c.o.allowedHosts !== null && !hostAllowed(c.o.allowedHosts, req.headers.host)) {
      return fail(T.misdirected());
    }
    const path = (req.url ?? '').split('?')[0]!;
    const match = path.startsWith('/')
      ? matchRoute(c.routes, req.method ?? '', path)
      : { kind: 'none' as const };
    switch (match.kind) {
      case 'none':
        return fail(T.routeNotFound());
      case 'wrongMethod':
        return fail(T.methodNotAllowed(match.endpoint), { Allow: match.allow.join(', ') });
      case 'endpoint':
        endpoint = match.endpoint;
        return sendJson(req, res, await answer(c, req, match.endpoint, match.params));
    }
  } catch (e) {
    if (T.isClientGone(e)) {
      c.o.onClientAbort({ method: req.method ?? '', path: printable((req.url ?? '').split('?')[0]!) });
      return abandonBody(req);
    }
    if (res.destroyed) return;
    if (isTaeError(e) && e.code === 'NO_SPACE')
      c.o.onNoSpace({ method: req.method ?? '', path: printable((req.url ?? '').split('?')[0]!) });
    if (isTaeError(e)) return fail(e);
    const internal = T.internalError(endpoint);
    c.o.onInternalError(e, String(internal.context.error_id));
    fail(internal);
  }
}

/** A `(req, res)` listener for `node:http` serving every endpoint of the interface over `engine`. */
export function createHttpHandler(engine: Engine, options: HttpOptions = {}): HttpHandler {
  const o = resolveOptions(options);
  const c: Context = {
    engine,
    o,
    routes: routeTable(),
    limiter: o.rateLimit === null ? null : new RateLimiter(o.rateLimit),
  };
  return (req, res) => {
    handle(c, req, res).catch((e: unknown) => {
      o.onInternalError(e, 'none');
      res.destroy();
    });
  };
}
