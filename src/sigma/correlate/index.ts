/** Correlation of base-rule matches: grouping, windows, chaining and `generate`. */
export { type CorrelateOptions, type CorrelateResult, correlate } from './engine.js';
export {
  DEFAULT_MAX_HITS,
  DEFAULT_MAX_MATCH_BYTES,
  DEFAULT_MAX_MATCHES,
  KeptMatches,
  limitDiagnostic,
  matchBytes,
} from './limits.js';
export { reportsStandalone } from './order.js';
export type { BaseMatch, CorrelationHit, RuleRef } from './types.js';
