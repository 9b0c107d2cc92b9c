/**
 * From public options to worker tasks: validation at the door, the content hash that keys
 * the rule-set cache, and scan targets moved into shared memory.
 */
import { createHash } from 'node:crypto';
import { type NativeCompilerOptions, type NativeVariables, yaraXVersion } from '../../native/yara-x.js';
import { invalidOption } from '../errors/index.js';
import type { CompiledRuleSet } from './cache.js';
import { checkStrings, checkVariables, resolveSources } from './options.js';
import type { CompileTask, RuleSource, ScanTarget } from './protocol.js';

export interface CompileRulesOptions {
  /** One rule text, or several sources (a pack), each with an optional namespace and origin. */
  readonly sources: string | readonly RuleSource[];
  /** External variables the rules declare, with their default values (signature-base's `filename`, …). */
  readonly variables?: NativeVariables;
  readonly ignoreModules?: readonly string[];
  /** Warning codes to switch off (`slow_pattern`); an unknown code fails the compile. */
  readonly disableWarnings?: readonly string[];
  readonly maxWarnings?: number;
  /** Accept legacy YARA regexps that yara-x rejects by default (`\R`, unescaped `{`). */
  readonly relaxedRegexps?: boolean;
  /** `skip` compiles the valid sources and lists the others in `rules.skipped` (default `fail`). */
  readonly invalidSources?: 'fail' | 'skip';
  readonly signal?: AbortSignal;
}

export interface ScanRulesOptions {
  readonly rules: CompiledRuleSet;
  /** Bytes to scan, or a file the worker reads (at most `maxBytes`, default 250 MiB). */
  readonly target: { readonly bytes: Uint8Array } | { readonly path: string; readonly maxBytes?: number };
  /** Per-scan values of the external variables. */
  readonly variables?: NativeVariables;
  /** Overrides the engine's scan timeout for this scan. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

const DEFAULT_FILE_BUDGET = 250 * 1024 * 1024;
const FORMAT = 1;

export function scanTarget(target: ScanRulesOptions['target']): ScanTarget {
  if (
    target !== null &&
    typeof target === 'object' &&
    'bytes' in target &&
    target.bytes instanceof Uint8Array
  ) {
    const b = target.bytes;
    if (b.buffer instanceof SharedArrayBuffer) return { kind: 'bytes', bytes: b };
    const shared = new Uint8Array(new SharedArrayBuffer(b.length));
    shared.set(b);
    return { kind: 'bytes', bytes: shared };
  }
  if (target !== null && typeof target === 'object' && 'path' in target && typeof target.path === 'string') {
    const maxBytes = target.maxBytes ?? DEFAULT_FILE_BUDGET;
    if (!Number.isInteger(maxBytes) || maxBytes < 0)
      throw invalidOption('target.maxBytes', 'a non-negative integer', maxBytes);
    return { kind: 'file', path: target.path, maxBytes };
  }
  throw invalidOption('target', '{ bytes: Uint8Array } or { path: string }', target);
}

/** Validates compile options and derives the task, keyed by a hash of everything that shapes the result. */
export function compileTask(o: CompileRulesOptions): CompileTask {
  if (o === null || typeof o !== 'object') throw invalidOption('sources', 'given', o);
  const sources = resolveSources(o.sources);
  checkVariables('variables', o.variables);
  checkStrings('ignoreModules', o.ignoreModules);
  checkStrings('disableWarnings', o.disableWarnings);
  if (o.maxWarnings !== undefined && !(Number.isInteger(o.maxWarnings) && o.maxWarnings >= 0))
    throw invalidOption('maxWarnings', 'a non-negative integer', o.maxWarnings);
  const invalidSources = o.invalidSources ?? 'fail';
  if (invalidSources !== 'fail' && invalidSources !== 'skip')
    throw invalidOption('invalidSources', '"fail" or "skip"', invalidSources);
  // Includes stay off: a rule must never make the engine read files (`include "/etc/passwd"`).
  const options: NativeCompilerOptions = {
    enableIncludes: false,
    ...(o.variables ? { defineVariables: o.variables } : {}),
    ...(o.ignoreModules ? { ignoreModules: o.ignoreModules } : {}),
    ...(o.disableWarnings ? { disableWarnings: o.disableWarnings } : {}),
    ...(o.maxWarnings !== undefined ? { maxWarnings: o.maxWarnings } : {}),
    ...(o.relaxedRegexps ? { relaxedReSyntax: true } : {}),
  };
  const h = createHash('sha256').update(JSON.stringify([FORMAT, yaraXVersion(), options, invalidSources]));
  for (const s of sources) {
    h.update(JSON.stringify([s.namespace ?? null, s.origin ?? null, s.source.length]));
    h.update(s.source);
  }
  return { kind: 'compile', hash: h.digest('hex'), sources, options, invalidSources };
}
