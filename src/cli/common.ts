/**
 * What several commands share: number options checked at the door (usage errors name the
 * flag), Sigma levels, the data directory, and the one-line warnings on stderr.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Option } from 'commander';
import { TaeError } from '../errors/index.js';
import { defaultThreads } from '../parse/index.js';
import { LEVELS } from '../sigma/index.js';
import { errLine } from './terminal.js';

/**
 * `-t, --threads` of the commands that decode EVTX files: worker threads for the files of 8 MiB
 * or more (smaller ones decode faster here than a worker starts), by default as many as the
 * cores (at most 8, as the service's decode pool); 0 decodes and matches on this thread.
 */
export const THREADS_HELP =
  'worker threads for EVTX files of 8 MiB or more (default: the cores, at most 8; 0: none)';

/** The `--threads` value given, or the default (THREADS_HELP). */
export const threadsFlag = (value: string | undefined): number =>
  intFlag('--threads', value, 0, 64) ?? defaultThreads();

/** Commander's collector for repeatable options (`--rule a --rule b`). */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const usage = (message: string) => new TaeError('INVALID_ARGUMENT', message);

/** An integer flag in [min, max]; anything else is a usage error naming the flag. */
export function intFlag(
  flag: string,
  value: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max)
    throw usage(`${flag} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  return n;
}

export const failOnOption = () =>
  new Option('--fail-on <level>', 'exit 1 when a finding at or above this level exists').choices([...LEVELS]);

/**
 * The per-user data directory shared by `tae rules`, the engine commands and `tae serve`:
 * $TAE_HOME, else $XDG_DATA_HOME/threat-analysis-engine (~/.local/share by default).
 */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.TAE_HOME) return env.TAE_HOME;
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'threat-analysis-engine');
}

export const dataOption = () =>
  new Option('--data <dir>', 'data directory (default: $TAE_HOME, else the per-user data directory)');

/**
 * Where rule runs find their packs: the given directory, else the per-user one when `tae rules`
 * created an index there, else an index in memory (the builtin pack only): a run never
 * creates a data directory nobody asked for.
 */
export function ruleLibraryDir(data: string | undefined): string | false {
  if (data !== undefined) return data;
  const dir = defaultDataDir();
  return existsSync(join(dir, 'rule-library.sqlite')) ? dir : false;
}

/** `tae: warning: …` on stderr, one line however the text was written. */
export function warn(message: string): void {
  errLine(`tae: warning: ${message.replace(/\s*\n\s*/g, ' ')}`);
}

/** `1 rule`, `2 rules`; `1 match`, `2 matches`. */
export function plural(
  n: number,
  word: string,
  many = /(s|sh|ch|x)$/.test(word) ? `${word}es` : `${word}s`,
): string {
  return `${n} ${n === 1 ? word : many}`;
}
