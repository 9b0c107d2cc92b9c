/** The library's options, checked at the door and resolved against the environment. */
import { delimiter, resolve } from 'node:path';
import { invalidOption } from '../errors/index.js';
import type { PlaceholderValues } from '../sigma/index.js';
import { DEFAULT_LIMITS, type PackLimits, type RuleLibraryOptions, type YaraChecker } from './types.js';

export interface Settings {
  /** Absolute data directory, or undefined for an in-memory index. */
  readonly dataDir: string | undefined;
  readonly packs: readonly string[];
  readonly builtin: boolean;
  readonly placeholders: PlaceholderValues;
  readonly yaraChecker: YaraChecker | undefined;
  readonly limits: PackLimits;
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null;

function limitsOf(given: unknown): PackLimits {
  if (given === undefined) return DEFAULT_LIMITS;
  if (!isObject(given)) throw invalidOption('limits', 'an object', given);
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS)) {
    const v = (given as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || (v as number) < 1)
      throw invalidOption(`limits.${key}`, 'a positive integer', v);
    out[key] = v as number;
  }
  return out as unknown as PackLimits;
}

export function settingsOf(options: RuleLibraryOptions): Settings {
  if (!isObject(options)) throw invalidOption('options', 'an object', options);
  const env = options.env ?? process.env;
  const { dataDir, packs, builtin, placeholders, yaraChecker } = options;
  if (dataDir !== undefined && dataDir !== false && (typeof dataDir !== 'string' || dataDir === ''))
    throw invalidOption('dataDir', 'a directory path or false', dataDir);
  if (
    packs !== undefined &&
    (!Array.isArray(packs) || !packs.every((p) => typeof p === 'string' && p !== ''))
  )
    throw invalidOption('packs', 'an array of paths', packs);
  if (builtin !== undefined && typeof builtin !== 'boolean')
    throw invalidOption('builtin', 'a boolean', builtin);
  if (placeholders !== undefined && !isObject(placeholders))
    throw invalidOption('placeholders', 'an object of string arrays', placeholders);
  if (
    yaraChecker !== undefined &&
    (!isObject(yaraChecker) ||
      typeof (yaraChecker as Partial<YaraChecker>).id !== 'string' ||
      typeof (yaraChecker as Partial<YaraChecker>).check !== 'function')
  )
    throw invalidOption('yaraChecker', 'an object with an id and a check function', yaraChecker);
  const home = dataDir === false ? undefined : (dataDir ?? (env.TAE_HOME || undefined));
  const fromEnv = (env.TAE_RULE_PACKS ?? '').split(delimiter).filter((p) => p !== '');
  return {
    dataDir: home === undefined ? undefined : resolve(home),
    packs: packs ?? fromEnv,
    builtin: builtin ?? true,
    placeholders: placeholders ?? {},
    yaraChecker,
    limits: limitsOf(options.limits),
  };
}
