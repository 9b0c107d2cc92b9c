/** The rule library: Sigma and YARA rule packs indexed in SQLite, retrieval by exact name, rule sets for community runs. */

export { BUILTIN_PACK, builtinPackDir } from './builtin.js';
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
