/** The Sigma data endpoint: supplied JSON or XML events, custom or community rules. */
export {
  MAX_TEST_DATA_BYTES,
  MAX_TEST_EVENTS,
  parseTestData,
  parseTestText,
  type TestRecord,
} from './input.js';
export { dataMatcher, type MatchedEvent, matchRecords, type SigmaMatcher } from './match.js';
export {
  COMMUNITY_COLUMNS,
  CUSTOM_COLUMNS,
  ruleFileStem,
  ruleStem,
  SIGMA_TABLE_TITLE,
  type SigmaDataResult,
} from './results.js';
export {
  detectionMatcher,
  type RunSigmaOptions,
  runSigma,
  runSigmaSync,
  type SigmaCommunityRules,
  type SigmaDataRequest,
  type SigmaDataResponse,
} from './run.js';
