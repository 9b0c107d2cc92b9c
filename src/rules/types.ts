/** The shapes the rule library hands out: packs, rules, diagnostics, selections and the YARA check seam. */
import type { PlaceholderValues } from '../sigma/index.js';

export type RuleKind = 'sigma' | 'yara';
export const RULE_KINDS = ['sigma', 'yara'] as const satisfies readonly RuleKind[];

/** Where a pack's files came from; `builtin` ships inside this package. */
export type PackFormat = 'builtin' | 'directory' | 'zip';

export interface PackInfo {
  readonly name: string;
  readonly format: PackFormat;
  /** Absolute path the pack was imported from. */
  readonly source: string;
  /** Precedence among same-named rules: lower first; the builtin pack is 0. */
  readonly position: number;
  /** SHA-256 over every candidate file's path and content hash: unchanged means nothing to do. */
  readonly fingerprint: string;
  readonly sigma: number;
  readonly yara: number;
  /** ISO-8601 time of the last change to the pack's index. */
  readonly indexedAt: string;
}

/** One indexed rule file, without its text. */
export interface RuleSummary {
  readonly kind: RuleKind;
  /** The file stem: exact and case-sensitive. */
  readonly name: string;
  readonly pack: string;
  /** Path inside the pack, `/`-separated. */
  readonly path: string;
  /** SHA-256 of the file's bytes. */
  readonly hash: string;
  readonly title?: string;
  readonly description?: string;
  readonly author?: string;
  readonly tags: readonly string[];
  readonly level?: string;
  readonly status?: string;
  /** The Sigma `id`. */
  readonly ruleId?: string;
}

/** One file carrying a name, with its text as lines. */
export interface RuleVariant extends RuleSummary {
  readonly lines: readonly string[];
  /**
   * For a Sigma rule rewritten for one log source (`sysmon`, `security`…), its name; absent
   * for the file as written.
   */
  readonly logsource?: string;
}

export const PACK_DIAGNOSTIC_CODES = [
  'pack.missing',
  'dir.too_deep',
  'file.too_large',
  'file.not_utf8',
  'file.symlink',
  'file.unreadable',
  'file.duplicate',
  'file.encrypted',
  'name.invalid',
  /** A YAML file that is not a Sigma document (no `title`): not indexed. */
  'sigma.not_a_rule',
  /** A Sigma rule that is indexed (retrievable) but does not load for runs. */
  'sigma.load',
  /** A YARA file the compiler rejects: indexed, skipped by community runs. */
  'yara.compile',
] as const;
export type PackDiagnosticCode = (typeof PACK_DIAGNOSTIC_CODES)[number];

export interface PackDiagnostic {
  readonly pack: string;
  /** The file inside the pack; absent for the pack as a whole. */
  readonly path?: string;
  readonly code: PackDiagnosticCode;
  readonly message: string;
}

export interface PackReport {
  readonly pack: PackInfo;
  /** True when the fingerprint matched: nothing was read into the index or written. */
  readonly unchanged: boolean;
  readonly added: number;
  readonly updated: number;
  readonly removed: number;
  /** Candidate files not indexed (see diagnostics). */
  readonly skipped: number;
  readonly diagnostics: readonly PackDiagnostic[];
}

/** The compiler's verdict on one YARA file. */
export type YaraCheck = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * SEAM (wired by the lead to src/yara): compiles one YARA source alone. `id` names the
 * compiler build (e.g. `yara-x 1.20`); verdicts are stored per content hash and checker id,
 * so each file is compiled once per compiler version. Includes must be disabled.
 */
export interface YaraChecker {
  readonly id: string;
  check(source: string): YaraCheck;
}

/** Bounds on what one pack may make the library read. */
export interface PackLimits {
  /** Rule files per pack (default 100,000). */
  readonly maxFiles: number;
  /** Bytes per rule file; larger files are skipped with a diagnostic (default 8 MiB). */
  readonly maxFileBytes: number;
  /** Bytes of rule files per pack, and uncompressed bytes of a zip; more rejects the pack (default 256 MiB). */
  readonly maxTotalBytes: number;
  /** Directory nesting (default 32). */
  readonly maxDepth: number;
  /** Entries of a zip, of any type (default 200,000). */
  readonly maxZipEntries: number;
}

export const DEFAULT_LIMITS: PackLimits = {
  maxFiles: 100_000,
  maxFileBytes: 8 << 20,
  maxTotalBytes: 256 << 20,
  maxDepth: 32,
  maxZipEntries: 200_000,
};

export interface RuleLibraryOptions {
  /** Directory of the persistent index; `false` keeps it in memory even when TAE_HOME is set. */
  readonly dataDir?: string | false;
  /** User packs indexed at open (default: TAE_RULE_PACKS, a path-delimiter-separated list). */
  readonly packs?: readonly string[];
  /** Index the builtin pack (default true); false also drops it from a persistent index. */
  readonly builtin?: boolean;
  /** `|expand` values used when indexing and loading Sigma rules. */
  readonly placeholders?: PlaceholderValues;
  /** Checks YARA sources as packs are indexed (the Engine wires its compiler). @internal */
  readonly yaraChecker?: YaraChecker;
  readonly limits?: Partial<PackLimits>;
  /** Environment read for TAE_HOME and TAE_RULE_PACKS (default process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface AddPackOptions {
  /** Pack name (default: the directory name or the zip's stem, made unique). */
  readonly name?: string;
}

/** Which rules a community run takes: every variant in the named packs (default all) with the given names (default all). */
export interface RuleSelection {
  readonly packs?: readonly string[];
  readonly names?: readonly string[];
}

export interface RuleOrigin {
  readonly kind: RuleKind;
  readonly name: string;
  readonly pack: string;
  readonly path: string;
}

export interface YaraRuleSource extends RuleOrigin {
  readonly text: string;
}
