/** Sigma rules: loading (YAML text → typed, compiled documents) and evaluation over events. */

export { bindCondition, selectNames } from './condition/evaluate.js';
export { type Condition, parseCondition } from './condition/parse.js';
export {
  type BaseMatch,
  type CorrelateOptions,
  type CorrelateResult,
  type CorrelationHit,
  correlate,
  limitDiagnostic,
  type RuleRef,
  reportsStandalone,
} from './correlate/index.js';
export { parseTimespan } from './correlation.js';
export {
  dataMatcher,
  detectionMatcher,
  MAX_TEST_DATA_BYTES,
  MAX_TEST_EVENTS,
  type MatchedEvent,
  matchRecords,
  parseTestData,
  parseTestText,
  type RunSigmaOptions,
  ruleFileStem,
  ruleStem,
  runSigma,
  runSigmaSync,
  type SigmaCommunityRules,
  type SigmaDataRequest,
  type SigmaDataResponse,
  type SigmaDataResult,
  type SigmaMatcher,
  type TestRecord,
} from './data/index.js';
export type { Detection, DetectionItem, DetectionNode } from './detection.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode, type RuleDiagnostic } from './diagnostics.js';
export {
  contextOf,
  EvalContext,
  eventFromNested,
  eventFromObject,
  type SigmaEvent,
  type SigmaScalar,
  type SigmaValue,
} from './event.js';
export {
  EVIDENCE_LIMITS,
  type EvidenceField,
  type EvidenceLimits,
  evidenceLine,
  matchEvidence,
  USUAL_EVIDENCE_FIELDS,
} from './evidence.js';
export { escapeEvidence } from './evidence-text.js';
export { EvtxSigmaEvent, SYSTEM_FIELDS, sigmaEventFromEvtx } from './evtx-event.js';
export {
  type LoadOptions,
  type LoadResult,
  loadParsedRules,
  loadRules,
  type ParsedRuleText,
  parseRuleText,
} from './load.js';
export {
  CATEGORIES,
  type ChannelRef,
  conditionText,
  type DroppedVariant,
  type EventSelector,
  FIELD_MAPS,
  type FieldMap,
  type FieldMapName,
  type FieldTranslation,
  filterApplies,
  type MappingOptions,
  mapRule,
  type ProviderRef,
  type RuleMapping,
  type RuleVariant,
  SERVICES,
  type SourceRow,
} from './logsource/index.js';
export { type Mitre, mitreOf } from './mitre.js';
export {
  COMPARE_OPS,
  CORRELATION_TYPES,
  type CorrelationCondition,
  type CorrelationOp,
  type CorrelationType,
  LEVELS,
  type LogSource,
  levelRank,
  type RelatedRule,
  type RuleMeta,
  type RuleStats,
  type SigmaCorrelation,
  type SigmaDocument,
  type SigmaFilter,
  type SigmaLevel,
  type SigmaRule,
  type SigmaStatus,
  STATUSES,
} from './model.js';
export {
  base64OffsetVariants,
  MODIFIERS,
  type PlaceholderValues,
  windashVariants,
} from './modifiers/index.js';
export { decodeParsed, encodeParsed, ParsedFormError } from './parsed-form.js';
export {
  type LoadedPortable,
  loadPortable,
  type PortableSigma,
  type PortableTexts,
  portableFits,
  portableSigma,
} from './portable.js';
export {
  type Anchor,
  type AnchorClause,
  type Anchors,
  anchorKey,
  compileRuleSet,
  type RuleMatch,
  RuleSet,
  type RuleSetCoverage,
  type RuleSetInput,
  type RuleSetOptions,
  type RuleSetStats,
  requiredEventIds,
  type ScannerData,
  type VariantStats,
} from './ruleset/index.js';
export {
  type CompiledSigma,
  DEFAULT_MAX_MATCHES,
  type MatchPlace,
  type RuleMatcher,
  referencedBy,
  type SessionResult,
  SigmaSession,
  type SigmaSessionOptions,
} from './session.js';
export { compiledDocuments } from './trust.js';
export { ANY, ONE, type Part, parseSigmaString, toSigmaText } from './wildcard.js';
export { type YamlMap, YamlNumber, type YamlScalar, type YamlValue } from './yaml.js';
