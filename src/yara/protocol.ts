/**
 * The worker boundary, declared once: tasks the pool runs and the results it returns.
 * Results are plain data (errors included) because a thrown error loses its code when it
 * crosses threads. Rule bytes and scanned buffers travel as SharedArrayBuffer views: shared,
 * not copied.
 */
import type { NativeCompilerOptions, NativeVariables } from '../../native/yara-x.js';
import type { YaraDiagnostic } from './diagnostics.js';

export interface RuleSource {
  readonly source: string;
  /** YARA namespace; rules with the same name may live in different namespaces. */
  readonly namespace?: string;
  /** A name for diagnostics (a file name). */
  readonly origin?: string;
}

export interface CompileTask {
  readonly kind: 'compile';
  readonly hash: string;
  readonly sources: readonly RuleSource[];
  readonly options: NativeCompilerOptions;
  /** `skip` compiles the valid sources and reports the invalid ones; `fail` fails the whole set. */
  readonly invalidSources: 'fail' | 'skip';
}

export type ScanTarget =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  /** The worker reads the file itself, refusing more than `maxBytes`. */
  | { readonly kind: 'file'; readonly path: string; readonly maxBytes: number };

export interface ScanTask {
  readonly kind: 'scan';
  readonly hash: string;
  /** Serialized rules; a worker deserializes them once per hash and keeps them. */
  readonly rules: Uint8Array;
  readonly target: ScanTarget;
  readonly variables?: NativeVariables;
  readonly timeoutMs: number;
  readonly maxMatchesPerPattern: number;
}

/**
 * Many small buffers in one task (payloads events carried): one message each way instead of one
 * per buffer, which costs far more than scanning a few KB. Each buffer has its own timeout.
 */
export interface ScanBatchTask {
  readonly kind: 'scan-batch';
  readonly hash: string;
  readonly rules: Uint8Array;
  readonly targets: readonly Uint8Array[];
  readonly variables?: NativeVariables;
  readonly timeoutMs: number;
  readonly maxMatchesPerPattern: number;
}

export type YaraTask = CompileTask | ScanTask | ScanBatchTask;

export interface PatternHits {
  readonly identifier: string;
  /** Matches kept (capped by maxMatchesPerPattern). */
  readonly count: number;
  readonly firstOffset: number;
}

export type YaraMetaValue = string | number | boolean;

export interface YaraRuleMatch {
  readonly rule: string;
  readonly namespace: string;
  readonly tags: readonly string[];
  readonly meta: Readonly<Record<string, YaraMetaValue>>;
  /** Matching patterns only; the match bytes themselves stay in the worker. */
  readonly patterns: readonly PatternHits[];
}

/** The binary could not be loaded in the worker; the message names the package. */
export interface Unavailable {
  readonly kind: 'unavailable';
  readonly message: string;
}

/** Anything else that went wrong inside the worker (unreadable file, foreign rule bytes, bad option). */
export interface TaskFailure {
  readonly kind: 'failed';
  readonly message: string;
  /** The worker itself died (out of memory, a crash), as opposed to the task failing. */
  readonly crashed?: boolean;
}

export type CompileTaskResult =
  | {
      readonly kind: 'compiled';
      readonly serialized: Uint8Array;
      readonly warnings: readonly YaraDiagnostic[];
      /** Errors of the sources left out under `invalidSources: 'skip'`. */
      readonly skipped: readonly YaraDiagnostic[];
    }
  | {
      readonly kind: 'compile-failed';
      readonly errors: readonly YaraDiagnostic[];
      readonly warnings: readonly YaraDiagnostic[];
    }
  | TaskFailure
  | Unavailable;

export type ScanTaskResult =
  | { readonly kind: 'matched'; readonly matches: readonly YaraRuleMatch[]; readonly bytes: number }
  | { readonly kind: 'timeout' }
  | TaskFailure
  | Unavailable;

/** One buffer's outcome in a batch. */
export type ScanItemResult =
  | { readonly kind: 'matched'; readonly matches: readonly YaraRuleMatch[]; readonly bytes: number }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'failed'; readonly message: string };

export type ScanBatchTaskResult =
  | { readonly kind: 'scanned'; readonly results: readonly ScanItemResult[] }
  | TaskFailure
  | Unavailable;
