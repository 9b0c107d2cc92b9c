/**
 * `threat-analysis-engine/http`: the HTTP twin of the Engine, as a `(req, res)` handler for
 * any `node:http`-compatible server or as a ready server (`serve`).
 */
export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  createHttpHandler,
  DEFAULT_HTTP_LIMITS,
  type HttpHandler,
  type HttpLimits,
  type HttpOptions,
  type RateLimit,
  type RunningServer,
  type ServeOptions,
  serve,
  UPLOAD_ALIAS,
} from '../http/index.js';
