/**
 * The HTTP twin of the Engine: every endpoint of the interface over `node:http`, with the same
 * paths, headers, statuses and bodies. A thin adapter: routing, headers, body reading and
 * transport limits; everything else is the Engine's.
 */
export { createHttpHandler, type HttpHandler } from './handler.js';
export {
  type ClientAbort,
  DEFAULT_HTTP_LIMITS,
  type HttpLimits,
  type HttpOptions,
  type RateLimit,
} from './options.js';
export { UPLOAD_ALIAS } from './routes.js';
export { type RunningServer, type ServeOptions, serve } from './server.js';
