/**
 * `threat-analysis-engine/http`: the HTTP twin of the Engine, as a `(req, res)` handler for
 * any `node:http`-compatible server or as a ready server (`serve`).
 *
 * @module threat-analysis-engine/http
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type ClientAbort,
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
