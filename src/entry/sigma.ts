/**
 * `threat-analysis-engine/sigma`: loading Sigma rules, compiling them into rule sets, matching
 * events and correlations, the evidence of a match (`matchEvidence`), the Sigma data endpoint
 * as `runSigma` (per-event hits over an EVTX file, `sigmaHits`, come from the root).
 *
 * @module threat-analysis-engine/sigma
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type BaseMatch,
  type CompiledSigma,
  type CorrelateOptions,
  type CorrelateResult,
  type CorrelationCondition,
  type CorrelationHit,
  compileRuleSet,
  correlate,
  EVIDENCE_LIMITS,
  type EvidenceField,
  type EvidenceLimits,
  eventFromNested,
  eventFromObject,
  evidenceLine,
  type LoadOptions,
  type LoadResult,
  type LogSource,
  loadRules,
  matchEvidence,
  type RelatedRule,
  type RuleDiagnostic,
  type RuleMatch,
  type RuleRef,
  type RuleSet,
  type RuleSetCoverage,
  type RuleSetInput,
  type RuleSetOptions,
  type RuleSetStats,
  type RuleStats,
  type RunSigmaOptions,
  runSigma,
  type SigmaCommunityRules,
  type SigmaCorrelation,
  type SigmaDataRequest,
  type SigmaDataResponse,
  type SigmaDataResult,
  type SigmaEvent,
  type SigmaFilter,
  type SigmaLevel,
  type SigmaMatcher,
  type SigmaRule,
  type SigmaScalar,
  type SigmaValue,
  sigmaEventFromEvtx,
  type VariantStats,
} from '../sigma/index.js';
