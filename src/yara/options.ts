/**
 * Defaults in one frozen constant and validation at the door for the engine, compile and
 * scan options; messages name the option.
 */
import { availableParallelism } from 'node:os';
import type { NativeVariables } from '../../native/yara-x.js';
import { invalidOption } from '../errors/index.js';
import type { RuleSource } from './protocol.js';

export const YARA_DEFAULTS = Object.freeze({
  /** Per scanned buffer or file. yara-x checks about once a second, so this is rounded up to whole seconds. */
  scanTimeoutMs: 30_000,
  /** yara-x's own default is 1,000,000, which costs ~110 MB of JS objects for one busy pattern. */
  maxMatchesPerPattern: 10_000,
  cacheEntries: 32,
  cacheBytes: 256 * 1024 * 1024,
});

export interface YaraEngineOptions {
  /** Worker threads (default: 2, or 1 on a single core). */
  readonly threads?: number;
  /** Default scan timeout in ms (default 30,000; whole seconds in effect). */
  readonly scanTimeoutMs?: number;
  /** Matches kept per pattern (default 10,000); `#a > n` counts beyond it evaluate false. */
  readonly maxMatchesPerPattern?: number;
  /** Compiled rule sets kept in memory (default 32; 0 disables the memory cache). */
  readonly cacheEntries?: number;
  /** Byte budget of the memory cache (default 256 MiB of serialized rules). */
  readonly cacheBytes?: number;
  /** Persist serialized rule sets here. Without it nothing is written to disk. */
  readonly cacheDir?: string;
}

export type ResolvedEngineOptions = Required<Omit<YaraEngineOptions, 'cacheDir'>> & {
  readonly cacheDir: string | null;
};

const isInt = (v: unknown, min: number, max: number): v is number =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

export function resolveEngineOptions(o: YaraEngineOptions): ResolvedEngineOptions {
  const threads = o.threads ?? Math.min(2, availableParallelism());
  if (!isInt(threads, 1, 64)) throw invalidOption('threads', 'an integer from 1 to 64', threads);
  const scanTimeoutMs = o.scanTimeoutMs ?? YARA_DEFAULTS.scanTimeoutMs;
  checkTimeout('scanTimeoutMs', scanTimeoutMs);
  const maxMatchesPerPattern = o.maxMatchesPerPattern ?? YARA_DEFAULTS.maxMatchesPerPattern;
  if (!isInt(maxMatchesPerPattern, 1, 1_000_000))
    throw invalidOption('maxMatchesPerPattern', 'an integer from 1 to 1000000', maxMatchesPerPattern);
  const cacheEntries = o.cacheEntries ?? YARA_DEFAULTS.cacheEntries;
  if (!isInt(cacheEntries, 0, 100_000))
    throw invalidOption('cacheEntries', 'an integer from 0 to 100000', cacheEntries);
  const cacheBytes = o.cacheBytes ?? YARA_DEFAULTS.cacheBytes;
  if (!isInt(cacheBytes, 0, Number.MAX_SAFE_INTEGER))
    throw invalidOption('cacheBytes', 'a non-negative integer', cacheBytes);
  if (o.cacheDir !== undefined && (typeof o.cacheDir !== 'string' || o.cacheDir === ''))
    throw invalidOption('cacheDir', 'a non-empty directory path', o.cacheDir);
  return {
    threads,
    scanTimeoutMs,
    maxMatchesPerPattern,
    cacheEntries,
    cacheBytes,
    cacheDir: o.cacheDir ?? null,
  };
}

export function checkTimeout(option: string, ms: unknown): asserts ms is number {
  if (!isInt(ms, 1, 3_600_000)) throw invalidOption(option, 'an integer number of ms from 1 to 3600000', ms);
}

export function checkVariables(option: string, v: unknown): asserts v is NativeVariables | undefined {
  if (v === undefined) return;
  const ok =
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.values(v).every(
      (x) => typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)),
    );
  if (!ok) throw invalidOption(option, 'an object of string, finite number or boolean values', v);
}

export function checkStrings(option: string, v: unknown): asserts v is readonly string[] | undefined {
  if (v !== undefined && !(Array.isArray(v) && v.every((s) => typeof s === 'string')))
    throw invalidOption(option, 'an array of strings', v);
}

export function resolveSources(sources: unknown): readonly RuleSource[] {
  if (typeof sources === 'string') return [{ source: sources }];
  const ok =
    Array.isArray(sources) &&
    sources.length > 0 &&
    sources.every(
      (s: Partial<RuleSource> | null) =>
        s !== null &&
        typeof s === 'object' &&
        typeof s.source === 'string' &&
        (s.namespace === undefined || (typeof s.namespace === 'string' && s.namespace !== '')) &&
        (s.origin === undefined || typeof s.origin === 'string'),
    );
  if (!ok)
    throw invalidOption(
      'sources',
      'a rule string or a non-empty array of { source, namespace?, origin? }',
      sources,
    );
  return sources as readonly RuleSource[];
}

/**
 * External variables that published rule sets (signature-base and others) read; a rule that
 * reads an undefined one fails to compile, so community packs compile with these defined empty.
 */
export const PACK_EXTERNAL_VARIABLES = Object.freeze({
  filename: '',
  filepath: '',
  extension: '',
  filetype: '',
  owner: '',
});
