/**
 * The seam to YARA-X: our own declarations for `@litko/yara-x-linux-x64-gnu` 0.7.2 (yara-x
 * 1.20), whose shipped `.d.ts` is broken. Every member below was checked against that binary
 * (test/yara-native.test.ts). The package loads lazily through createRequire: importing this
 * file never touches the binary, and on a platform without it the first use fails with
 * TaeError('NATIVE_UNAVAILABLE') naming the package.
 */
import { createRequire } from 'node:module';
import { TaeError } from '../src/errors/index.js';

export const YARA_X_PACKAGE = '@litko/yara-x-linux-x64-gnu';

/** Global variables (compile-time definitions and per-scan overrides). A whole number is an integer. */
export type NativeVariables = Readonly<Record<string, string | number | boolean>>;

export interface NativeBannedModule {
  readonly name: string;
  /** Title of the E100 error raised when a rule imports the module. */
  readonly errorTitle: string;
  readonly errorMessage: string;
}

export interface NativeCompilerOptions {
  /** Namespace of the rules (default `default`). */
  readonly namespace?: string;
  readonly defineVariables?: NativeVariables;
  /** Modules whose imports are ignored (rules using them are ignored). */
  readonly ignoreModules?: readonly string[];
  readonly bannedModules?: readonly NativeBannedModule[];
  readonly features?: readonly string[];
  readonly relaxedReSyntax?: boolean;
  readonly conditionOptimization?: boolean;
  /** Turns the `slow_pattern` warning into error E018. */
  readonly errorOnSlowPattern?: boolean;
  readonly errorOnSlowLoop?: boolean;
  readonly maxWarnings?: number;
  /** Warning codes to switch off; an unknown code makes compile() throw. */
  readonly disableWarnings?: readonly string[];
  readonly enableAllWarnings?: boolean;
  readonly includeDirectories?: readonly string[];
  /** Default true in the binary: `include "/etc/passwd"` is read. Pass false for untrusted rules. */
  readonly enableIncludes?: boolean;
}

/** A compiler diagnostic: `code` is `E###` for errors, a snake_case name for warnings. */
export interface NativeDiagnostic {
  readonly code: string;
  /** The rendered report: `error[E022]: unused pattern …\n --> line:1:30\n …`. */
  readonly message: string;
}

export interface NativeCompileResult {
  readonly warnings: readonly NativeDiagnostic[];
  readonly errors: readonly NativeDiagnostic[];
}

export interface NativeMatch {
  readonly offset: number;
  readonly length: number;
  /** The matched bytes as lossy UTF-8; slice the input for exact bytes. */
  readonly data: string;
  readonly identifier: string;
  /** Present after setMatchContextSize(n > 0). */
  readonly contextData?: string;
  readonly contextMatchOffset?: number;
}

/** Meta values; a string that is not valid UTF-8 arrives as `"unknown"`. */
export type NativeMetaValue = string | number | boolean;

export interface NativeRuleMatch {
  readonly ruleIdentifier: string;
  readonly namespace: string;
  /** Later duplicate keys overwrite earlier ones. */
  readonly meta: Readonly<Record<string, NativeMetaValue>>;
  readonly tags: readonly string[];
  readonly matches: readonly NativeMatch[];
}

export interface NativeRuleSource {
  readonly source: string;
  readonly namespace?: string;
}

/** Compiled rules plus the scanner settings; every method is synchronous unless it returns a Promise. */
export interface NativeRules {
  /** Throws `Error('Scan timed out')` (code `Cancelled`) when the timeout fires. */
  scan(data: Uint8Array, variables?: NativeVariables): NativeRuleMatch[];
  scanFile(path: string, variables?: NativeVariables): NativeRuleMatch[];
  /** Runs on the libuv pool but copies `data` first on the calling thread. */
  scanAsync(data: Uint8Array, variables?: NativeVariables): Promise<NativeRuleMatch[]>;
  scanFileAsync(path: string, variables?: NativeVariables): Promise<NativeRuleMatch[]>;
  /** Milliseconds; yara-x checks about once a second, so the effective minimum is 1 s. 0 times out at once. */
  setTimeout(timeoutMs: number): void;
  /** Caps stored matches per pattern (default 1,000,000); `#a > n` beyond the cap evaluates false. */
  setMaxMatchesPerPattern(maxMatches: number): void;
  setMatchContextSize(size: number): void;
  setUseMmap(useMmap: boolean): void;
  /** Empty after deserialize(). */
  getWarnings(): NativeDiagnostic[];
  /** Empty in practice: a failing compile throws instead. */
  getCompilationErrors(): NativeDiagnostic[];
  getIgnoredRules(): unknown[];
  /** Recompiles every source added so far on each call; prefer addRuleSources. */
  addRuleSource(source: string, namespace?: string): void;
  /** One compilation pass; the first error throws and nothing is added. */
  addRuleSources(sources: readonly NativeRuleSource[]): void;
  addRuleFile(path: string, namespace?: string): void;
  defineVariable(name: string, value: string): void;
  /** The compiled rules; deserialize() accepts them in the same binary version only. */
  serialize(): Buffer;
  emitWasmFile(path: string): void;
  emitWasmFileAsync(path: string): Promise<void>;
}

export interface YaraXModule {
  /** Throws `Error('Compilation error (E###): <first error report>')`, code `GenericFailure`. */
  compile(source: string, options?: NativeCompilerOptions): NativeRules;
  /** Every error and warning, without throwing. */
  validate(source: string, options?: NativeCompilerOptions): NativeCompileResult;
  /** Empty rules, to be filled with addRuleSource(s). */
  create(): NativeRules;
  fromFile(path: string, options?: NativeCompilerOptions): NativeRules;
  /** Throws `Failed to deserialize rules: …` (code `InvalidArg`) on foreign bytes. */
  deserialize(data: Uint8Array): NativeRules;
  compileToWasm(source: string, outputPath: string, options?: NativeCompilerOptions): void;
  compileFileToWasm(path: string, outputPath: string, options?: NativeCompilerOptions): void;
  /** Not constructible from JS (`new` throws); present for instanceof checks. */
  readonly YaraX: abstract new () => NativeRules;
}

/** The functions this project relies on; a binary missing one is treated as unavailable. */
const REQUIRED = ['compile', 'validate', 'create', 'deserialize'] as const;

/** A memoised loader for a YARA-X package; exported so tests can point it at a missing package. */
export function yaraXLoader(specifier: string): () => YaraXModule {
  let loaded: YaraXModule | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    let mod: Partial<YaraXModule>;
    try {
      mod = createRequire(import.meta.url)(specifier) as Partial<YaraXModule>;
    } catch (cause) {
      throw new TaeError(
        'NATIVE_UNAVAILABLE',
        `YARA-X is not available on ${process.platform}-${process.arch}: the optional package ${specifier} could not be loaded (${(cause as Error).message.split('\n')[0]})`,
        { cause, context: { package: specifier } },
      );
    }
    const missing = REQUIRED.filter((name) => typeof mod[name] !== 'function');
    if (missing.length > 0) {
      throw new TaeError(
        'NATIVE_UNAVAILABLE',
        `the package ${specifier} lacks ${missing.join(', ')}: version 0.7.2 is required`,
        { context: { package: specifier } },
      );
    }
    loaded = mod as YaraXModule;
    return loaded;
  };
}

export const loadYaraX: () => YaraXModule = yaraXLoader(YARA_X_PACKAGE);

/** The installed binary's package version without loading it (`null` when absent). */
export function yaraXVersion(specifier = YARA_X_PACKAGE): string | null {
  try {
    const pkg = createRequire(import.meta.url)(`${specifier}/package.json`) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : null;
  } catch {
    return null;
  }
}
