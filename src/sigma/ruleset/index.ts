/** The rule set: mapped variants indexed by (channel, event id), evaluated per event. */

export type { Anchor, AnchorClause, Anchors } from './anchors.js';
export { type IdSet, requiredEventIds } from './event-ids.js';
export type { ScannerData } from './literal-scan.js';
export {
  anchorKey,
  compileRuleSet,
  type RuleMatch,
  RuleSet,
  type RuleSetCoverage,
  type RuleSetInput,
  type RuleSetOptions,
  type RuleSetStats,
  type VariantStats,
} from './ruleset.js';
