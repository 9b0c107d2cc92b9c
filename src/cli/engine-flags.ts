/**
 * The commands that work on a persistent engine (tokens, files, jobs, search) share its data
 * directory (`--data`, default as `tae rules`) and the two headers of the interface as flags:
 * `--token` (or $TAE_TOKEN) and `--key` (or $TAE_KEY, which keeps the key out of `ps`).
 * One engine may use a data directory at a time: while `tae serve` runs on it, these fail.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Auth, Engine } from '../service/index.js';
import { dataOption, defaultDataDir } from './common.js';

export interface EngineFlags {
  data?: string;
  token?: string;
  key?: string;
}

export function engineOptions(command: Command, auth = true): Command {
  command.addOption(dataOption());
  if (auth)
    command
      .addOption(new Option('--token <token>', 'API token (tae tokens create)').env('TAE_TOKEN'))
      .addOption(new Option('--key <key>', 'encryption key of private files and jobs').env('TAE_KEY'));
  return command;
}

export const authOf = (flags: EngineFlags): Auth => ({
  ...(flags.token ? { token: flags.token } : {}),
  ...(flags.key ? { encKey: flags.key } : {}),
});

export async function withEngine<T>(
  flags: EngineFlags,
  use: (engine: Engine, auth: Auth) => Promise<T>,
): Promise<T> {
  // Retention is the server's (tae serve --public-ttl): a short command must not sweep by
  // another policy than the one the operator gave the server.
  const engine = await Engine.open({ dataDir: flags.data ?? defaultDataDir(), publicTtlMs: 0 });
  try {
    return await use(engine, authOf(flags));
  } finally {
    await engine.close();
  }
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--public-ttl`: `0` or `off` keeps public data forever; else a count of m, h or d. */
export function publicTtl(value: string): number {
  if (value === '0' || value === 'off') return 0;
  const m = /^([1-9]\d{0,5})([mhd])$/.exec(value);
  const ms = m === null ? Number.NaN : Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (!(ms >= UNIT_MS.m && ms <= 3650 * UNIT_MS.d)) {
    throw new InvalidArgumentError(
      'a duration from 1m to 3650d such as 7d, 12h or 30m, or 0 (or off) to keep forever',
    );
  }
  return ms;
}

/** A TTL as the flag would spell it (the largest whole unit). */
export function ttlText(ms: number): string {
  if (ms === 0) return 'forever';
  for (const u of ['d', 'h', 'm'] as const) if (ms % UNIT_MS[u] === 0) return `${ms / UNIT_MS[u]}${u}`;
  return `${ms}ms`;
}
