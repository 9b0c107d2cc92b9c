/**
 * The route table, built from the service's ENDPOINTS (so a new endpoint is served as soon as
 * it is listed there), plus `/analysis/upload`: the spec's upload line says `/upload` while its
 * examples use `/analysis/upload`, so both are served. A literal path wins over a template
 * (`/analysis/job/list` is not job "list"), and a known path with another method is a 405.
 */
import { ENDPOINTS, type Endpoint } from '../service/index.js';

type Method = 'GET' | 'POST';

interface Route {
  readonly endpoint: Endpoint;
  readonly method: Method;
  /** Path segments; `{name}` is a parameter. */
  readonly segments: readonly string[];
  readonly literal: boolean;
}

export const UPLOAD_ALIAS = '/analysis/upload';

export type RouteMatch =
  | { readonly kind: 'endpoint'; readonly endpoint: Endpoint; readonly params: Record<string, string> }
  | { readonly kind: 'wrongMethod'; readonly endpoint: Endpoint; readonly allow: readonly Method[] }
  | { readonly kind: 'none' };

const PARAM = /^\{(\w+)\}$/;

function route(endpoint: Endpoint, method: Method, path: string): Route {
  const segments = path.split('/').slice(1);
  return { endpoint, method, segments, literal: !segments.some((s) => PARAM.test(s)) };
}

export function routeTable(): readonly Route[] {
  const routes = Object.entries(ENDPOINTS).map(([name, info]) =>
    route(name as Endpoint, info.method, info.path),
  );
  routes.push(route('upload', ENDPOINTS.upload.method, UPLOAD_ALIAS));
  return routes;
}

/** Percent-decoded, or as sent when the encoding is broken (the engine then finds nothing). */
function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function paramsOf(r: Route, segments: readonly string[]): Record<string, string> | null {
  if (r.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, s] of r.segments.entries()) {
    const got = segments[i]!;
    const name = PARAM.exec(s)?.[1];
    if (name === undefined) {
      if (s !== got) return null;
    } else if (got === '') return null;
    else params[name] = decode(got);
  }
  return params;
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const segments = path.split('/').slice(1);
  for (const literal of [true, false]) {
    const hits = routes
      .filter((r) => r.literal === literal)
      .flatMap((r) => {
        const params = paramsOf(r, segments);
        return params === null ? [] : [{ r, params }];
      });
    if (hits.length === 0) continue;
    const hit = hits.find((h) => h.r.method === method);
    if (hit !== undefined) return { kind: 'endpoint', endpoint: hit.r.endpoint, params: hit.params };
    return {
      kind: 'wrongMethod',
      endpoint: hits[0]!.r.endpoint,
      allow: [...new Set(hits.map((h) => h.r.method))],
    };
  }
  return { kind: 'none' };
}
