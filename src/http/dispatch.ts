/**
 * Which Engine method answers each endpoint, and with which arguments: one total,
 * literal-typed table, so a new endpoint without a line here, a renamed Engine method or a
 * renamed path parameter fails to compile. A JSON body is untrusted whatever its static type:
 * the Engine checks every field of a request at run time, so the body is handed over as the
 * method's request type by `asRequest`, the one place that says so.
 */
import type { IncomingMessage } from 'node:http';
import type { Auth, ENDPOINTS, Endpoint, Engine } from '../service/index.js';
import type { JsonObject } from './json-body.js';
import type { HttpLimits } from './options.js';
import { handleUpload } from './upload.js';

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | ParamNames<Rest>
  : never;

/** The path parameters of endpoint `E`, named by its path template (`/analysis/job/{job_id}`). */
export type PathParams<E extends Endpoint> = {
  readonly [N in ParamNames<(typeof ENDPOINTS)[E]['path']>]: string;
};

/** One request to endpoint `E`, as the dispatch table sees it. */
export interface HttpCall<E extends Endpoint> {
  readonly engine: Engine;
  readonly req: IncomingMessage;
  readonly auth: Auth;
  readonly params: PathParams<E>;
  readonly limits: HttpLimits;
  /** Reads the JSON object body within the endpoint's limit (a GET's body is never read). */
  json(): Promise<JsonObject>;
}

type Dispatch = { readonly [E in Endpoint]: (call: HttpCall<E>) => Promise<unknown> };

/** The body as the method's request type: the Engine validates every field (see above). */
const asRequest = <R>(body: JsonObject): R => body as R;

const DISPATCH = {
  upload: (c) => handleUpload(c.engine, c.req, c.auth, c.limits),
  createParseJob: async (c) => c.engine.createParseJob(asRequest(await c.json()), c.auth),
  search: async (c) => c.engine.search(await c.json(), c.auth),
  createYaraFileJob: async (c) => c.engine.createYaraFileJob(asRequest(await c.json()), c.auth),
  yaraData: async (c) => c.engine.yaraData(asRequest(await c.json()), c.auth),
  yaraRules: async (c) => c.engine.yaraRules(await c.json(), c.auth),
  createSigmaFileJob: async (c) => c.engine.createSigmaFileJob(asRequest(await c.json()), c.auth),
  sigmaData: async (c) => c.engine.sigmaData(asRequest(await c.json()), c.auth),
  sigmaRules: async (c) => c.engine.sigmaRules(await c.json(), c.auth),
  lookup: async (c) => c.engine.lookup(asRequest(await c.json()), c.auth),
  getJob: (c) => c.engine.getJob({ job_id: c.params.job_id }, c.auth),
  listJobs: (c) => c.engine.listJobs(c.auth),
  deleteJobs: async (c) => c.engine.deleteJobs(asRequest(await c.json()), c.auth),
  listFiles: (c) => c.engine.listFiles(c.auth),
  deleteFiles: async (c) => c.engine.deleteFiles(asRequest(await c.json()), c.auth),
  cancelJob: async (c) => c.engine.cancelJob(asRequest(await c.json()), c.auth),
} as const satisfies Dispatch;

const TABLE: Dispatch = DISPATCH;

/** Calls the Engine method of `endpoint` with the arguments its table line maps. */
export const dispatch = <E extends Endpoint>(endpoint: E, call: HttpCall<E>): Promise<unknown> =>
  TABLE[endpoint](call);
