/**
 * YARA on YARA-X: compile once (cached by content hash), scan many in worker threads with
 * a timeout always set, and the spec's result shapes for the data endpoint and file jobs.
 */

export type { NativeVariables } from '../../native/yara-x.js';
export type { CompiledRuleSet } from './cache.js';
export { type RuleCheck, type RuleChecker, type RuleCheckerOptions, yaraRuleChecker } from './check.js';
export { diagnosticsText, type YaraDiagnostic, type YaraSeverity } from './diagnostics.js';
export {
  type CacheSource,
  type CompileOutcome,
  type CompileRulesOptions,
  defaultYaraEngine,
  type ScanOutcome,
  type ScanRulesOptions,
  YaraEngine,
} from './engine.js';
export {
  COMMUNITY_COLUMNS,
  COMMUNITY_TABLE_TITLE,
  CUSTOM_COLUMNS,
  CUSTOM_TABLE_TITLE,
  FILE_COLUMNS,
  FILE_TABLE_TITLE,
  METADATA_TITLE,
  NO_MATCH_MESSAGE,
  TEST_DATA_LABEL,
  YARA_CATEGORY,
  type YaraDataElement,
  type YaraDataResponse,
  type YaraInsight,
  type YaraRuleMetadata,
  type YaraTable,
} from './insights.js';
export { PACK_EXTERNAL_VARIABLES, YARA_DEFAULTS, type YaraEngineOptions } from './options.js';
export type { PatternHits, RuleSource, YaraMetaValue, YaraRuleMatch } from './protocol.js';
export type { YaraDataRequest, YaraOperation } from './request.js';
export { type CommunityRules, MAX_TEST_DATA_BYTES, type RunYaraOptions, runYara } from './run-yara.js';
export {
  MAX_FILE_ANALYSIS_BYTES,
  MAX_FILES,
  type ScanFilesOptions,
  scanFiles,
  type YaraFileInput,
  type YaraFileScan,
  type YaraRuleChoice,
} from './scan-files.js';
export {
  type PayloadScan,
  type PayloadScanResult,
  type ScannablePayload,
  type ScanPayloadsOptions,
  scanPayloads,
} from './scan-payloads.js';
