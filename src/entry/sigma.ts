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
  type CompiledSigma,
  type CorrelateOptions,
  type CorrelateResult,
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
  loadRules,
  matchEvidence,
  type RuleDiagnostic,
  type RuleMatch,
  type RuleSet,
  type RuleSetInput,
  type RuleSetOptions,
  type RunSigmaOptions,
  runSigma,
  type SigmaCommunityRules,
  type SigmaDataRequest,
  type SigmaDataResponse,
  type SigmaDataResult,
  type SigmaEvent,
  type SigmaLevel,
  type SigmaMatcher,
  type SigmaRule,
  type SigmaValue,
  sigmaEventFromEvtx,
} from '../sigma/index.js';
