/**
 * YaraEngine: compile once, scan many. Compiles and scans run in worker threads, so the
 * event loop never waits on yara-x; compiled sets are cached by content hash (memory LRU,
 * plus a directory only when the caller names one); every scan carries a timeout.
 */

import type { NativeVariables } from '../../native/yara-x.js';
import { invalidOption, TaeError } from '../errors/index.js';
import { type CachedCompile, type CompiledRuleSet, persist, RuleSetLru, readPersisted } from './cache.js';
import type { YaraDiagnostic } from './diagnostics.js';
import {
  checkTimeout,
  checkVariables,
  type ResolvedEngineOptions,
  resolveEngineOptions,
  type YaraEngineOptions,
} from './options.js';
import { YaraPool } from './pool.js';
import type { CompileTask, YaraRuleMatch } from './protocol.js';
import { type CompileRulesOptions, compileTask, type ScanRulesOptions, scanTarget } from './tasks.js';

export type { CompileRulesOptions, ScanRulesOptions } from './tasks.js';

/** Where a compile outcome came from: `miss` means the worker compiled it now. */
export type CacheSource = 'memory' | 'disk' | 'miss';

export type CompileOutcome =
  | { readonly kind: 'compiled'; readonly rules: CompiledRuleSet; readonly cache: CacheSource }
  | {
      readonly kind: 'failed';
      readonly errors: readonly YaraDiagnostic[];
      readonly warnings: readonly YaraDiagnostic[];
      readonly cache: CacheSource;
    };

export type ScanOutcome =
  | { readonly kind: 'matched'; readonly matches: readonly YaraRuleMatch[]; readonly bytes: number }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'failed'; readonly message: string };

export class YaraEngine {
  /** The options with their defaults, for the engine's workers. @internal */
  readonly options: ResolvedEngineOptions;
  private readonly lru: RuleSetLru;
  private readonly compiling = new Map<string, Promise<CompileOutcome>>();
  private pool: YaraPool | null = null;

  constructor(options: YaraEngineOptions = {}) {
    this.options = resolveEngineOptions(options);
    this.lru = new RuleSetLru(this.options.cacheEntries, this.options.cacheBytes);
  }

  async compile(options: CompileRulesOptions): Promise<CompileOutcome> {
    const task = compileTask(options);
    const cached = this.lru.get(task.hash);
    if (cached !== undefined) return { ...cached, cache: 'memory' };
    const pending = this.compiling.get(task.hash);
    if (pending !== undefined) return pending;
    const outcome = this.compileMiss(task, options.signal).finally(() => this.compiling.delete(task.hash));
    this.compiling.set(task.hash, outcome);
    return outcome;
  }

  private async compileMiss(task: CompileTask, signal?: AbortSignal): Promise<CompileOutcome> {
    const dir = this.options.cacheDir;
    const stored = dir === null ? null : await readPersisted(dir, task.hash);
    if (stored !== null) return this.remember(task.hash, { kind: 'compiled', rules: stored }, 'disk');
    const r = await this.workers().compile(task, signal);
    switch (r.kind) {
      case 'compiled': {
        const rules = { hash: task.hash, serialized: r.serialized, warnings: r.warnings, skipped: r.skipped };
        // The cache is an optimisation: a read-only or full directory must not fail the compile.
        if (dir !== null) await persist(dir, rules).catch(() => {});
        return this.remember(task.hash, { kind: 'compiled', rules }, 'miss');
      }
      case 'compile-failed':
        return this.remember(task.hash, { kind: 'failed', errors: r.errors, warnings: r.warnings }, 'miss');
      case 'failed':
        // Not a verdict on the rules: a bad option (an unknown warning code) or a dead worker.
        throw new TaeError(
          r.crashed ? 'INTERNAL' : 'INVALID_ARGUMENT',
          `YARA rules could not be compiled: ${r.message}`,
        );
      case 'unavailable':
        throw new TaeError('NATIVE_UNAVAILABLE', r.message);
      default:
        return r satisfies never;
    }
  }

  private remember(hash: string, value: CachedCompile, cache: CacheSource): CompileOutcome {
    if (this.options.cacheEntries > 0) this.lru.set(hash, value);
    return { ...value, cache };
  }

  async scan(options: ScanRulesOptions): Promise<ScanOutcome> {
    const { rules, target, variables, signal } = options;
    if (!(rules?.serialized instanceof Uint8Array) || typeof rules.hash !== 'string')
      throw invalidOption('rules', 'a CompiledRuleSet from YaraEngine.compile', rules);
    checkVariables('variables', variables);
    const timeoutMs = options.timeoutMs ?? this.options.scanTimeoutMs;
    checkTimeout('timeoutMs', timeoutMs);
    const r = await this.workers().scan(
      {
        kind: 'scan',
        hash: rules.hash,
        rules: rules.serialized,
        target: scanTarget(target),
        timeoutMs,
        maxMatchesPerPattern: this.options.maxMatchesPerPattern,
        ...(variables ? { variables } : {}),
      },
      signal,
    );
    switch (r.kind) {
      case 'matched':
        return r;
      case 'failed':
        return { kind: 'failed', message: r.message };
      case 'timeout':
        return { kind: 'timeout', timeoutMs };
      case 'unavailable':
        throw new TaeError('NATIVE_UNAVAILABLE', r.message);
      default:
        return r satisfies never;
    }
  }

  /**
   * Many buffers with the same rules in one worker task (far cheaper than one `scan` each for
   * small buffers); each buffer is scanned under the timeout. Outcomes in the order of `targets`.
   */
  async scanBatch(options: {
    readonly rules: CompiledRuleSet;
    readonly targets: readonly Uint8Array[];
    readonly timeoutMs?: number;
    readonly variables?: NativeVariables;
    readonly signal?: AbortSignal;
  }): Promise<ScanOutcome[]> {
    const { rules, targets, variables, signal } = options;
    if (!(rules?.serialized instanceof Uint8Array) || typeof rules.hash !== 'string')
      throw invalidOption('rules', 'a CompiledRuleSet from YaraEngine.compile', rules);
    if (!Array.isArray(targets) || !targets.every((t) => t instanceof Uint8Array))
      throw invalidOption('targets', 'an array of Uint8Array', targets);
    checkVariables('variables', variables);
    const timeoutMs = options.timeoutMs ?? this.options.scanTimeoutMs;
    checkTimeout('timeoutMs', timeoutMs);
    if (targets.length === 0) return [];
    const r = await this.workers().scanBatch(
      {
        kind: 'scan-batch',
        hash: rules.hash,
        rules: rules.serialized,
        targets,
        timeoutMs,
        maxMatchesPerPattern: this.options.maxMatchesPerPattern,
        ...(variables ? { variables } : {}),
      },
      signal,
    );
    switch (r.kind) {
      case 'scanned':
        return r.results.map((x) => (x.kind === 'timeout' ? { kind: 'timeout', timeoutMs } : x));
      case 'failed':
        return targets.map(() => ({ kind: 'failed', message: r.message }));
      case 'unavailable':
        throw new TaeError('NATIVE_UNAVAILABLE', r.message);
      default:
        return r satisfies never;
    }
  }

  /** Rule sets held by the memory cache. */
  get cachedRuleSets(): number {
    return this.lru.size;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }

  private workers(): YaraPool {
    this.pool ??= new YaraPool(this.options.threads);
    return this.pool;
  }
}

let shared: YaraEngine | null = null;

/** The process-wide engine (default options), created on first use; its idle workers let the process exit. */
export function defaultYaraEngine(): YaraEngine {
  shared ??= new YaraEngine();
  return shared;
}
