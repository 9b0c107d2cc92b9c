/**
 * `threat-analysis-engine/yara`: YARA-X rules compiled once and scanned in worker threads, the
 * YARA data endpoint as `runYara`, and file scans as `scanFiles`.
 *
 * @module threat-analysis-engine/yara
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type CacheSource,
  type CommunityRules,
  type CompiledRuleSet,
  type CompileOutcome,
  type CompileRulesOptions,
  defaultYaraEngine,
  type NativeVariables,
  type PatternHits,
  type RuleSource,
  type RunYaraOptions,
  runYara,
  type ScanFilesOptions,
  type ScanOutcome,
  type ScanRulesOptions,
  scanFiles,
  type YaraDataElement,
  type YaraDataRequest,
  type YaraDataResponse,
  type YaraDiagnostic,
  YaraEngine,
  type YaraEngineOptions,
  type YaraFileInput,
  type YaraFileScan,
  type YaraInsight,
  type YaraMetaValue,
  type YaraOperation,
  type YaraRuleChoice,
  type YaraRuleMatch,
  type YaraRuleMetadata,
  type YaraSeverity,
  type YaraTable,
} from '../yara/index.js';
