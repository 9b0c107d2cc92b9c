/** Correlation of base-rule matches: grouping, windows, chaining and `generate`. */
export { type CorrelateOptions, type CorrelateResult, correlate, limitDiagnostic } from './engine.js';
export { reportsStandalone } from './order.js';
export type { BaseMatch, CorrelationHit, RuleRef } from './types.js';
