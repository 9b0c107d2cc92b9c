/** The rule library: Sigma and YARA rule packs indexed in SQLite, retrieval by exact name, rule sets for community runs. */

export { BUILTIN_PACK, builtinPackDir } from './builtin.js';
export { type CachedParse, parseCached } from './cache/cached-parse.js';
export { evict, MAX_CACHE_BYTES, RULE_CACHE_FORMAT, ruleCacheStats } from './cache/files.js';
export type { Learnt } from './cache/learnt.js';
export {
  type BuiltRules,
  buildCachedRules,
  type CachedRulesInput,
  type CompiledRules,
} from './cache/load.js';
export { type RuleText, type TextPart, textsPart } from './cache/parts.js';
export { filesPart, type StatFile } from './cache/stat-key.js';
export { openRuleLibrary, type RuleLibrary, type RuleLinesResult } from './library.js';
export { ruleLines } from './lines.js';
export {
  INVALID_NAMES_MESSAGE,
  isRuleName,
  MAX_NAME_CHARS,
  MAX_NAMES_PER_REQUEST,
  NOT_FOUND_MESSAGE,
} from './names.js';
export { readRuleInput, statRuleInput } from './rule-file.js';
export { INDEX_FILE } from './schema.js';
export {
  loadSigmaSources,
  type SigmaRuleSet,
  type SigmaSourceText,
  type YaraSourceSet,
} from './selection.js';
export {
  type AddPackOptions,
  DEFAULT_LIMITS,
  PACK_DIAGNOSTIC_CODES,
  type PackDiagnostic,
  type PackDiagnosticCode,
  type PackFormat,
  type PackInfo,
  type PackLimits,
  type PackReport,
  RULE_KINDS,
  type RuleKind,
  type RuleLibraryOptions,
  type RuleOrigin,
  type RuleSelection,
  type RuleSummary,
  type RuleVariant,
  type YaraCheck,
  type YaraChecker,
  type YaraRuleSource,
} from './types.js';
export { type WalkEntry, type WalkOptions, walkFiles } from './walk.js';
