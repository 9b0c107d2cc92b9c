/**
 * The commands that work on a persistent engine (tokens, files, jobs, search) share its data
 * directory (`--data`, default as `tae rules`) and the two headers of the interface as flags:
 * `--token` (or $TAE_TOKEN) and `--key` (or $TAE_KEY, which keeps the key out of `ps`).
 * One engine may use a data directory at a time: while `tae serve` runs on it, these fail with
 * exit code 6 (only `tae tokens create` works beside it).
 * Key errors are reworded for the command line: the service's text for a wrong key can be the
 * same as for a missing one (search's 403 is `Encryption key required` either way).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { isTaeError, TaeError } from '../errors/index.js';
import { type Auth, ENC_KEY_FORMAT, Engine, type KeyProblem } from '../service/index.js';
import { dataOption, defaultDataDir } from './common.js';
import { inDataDir } from './no-space.js';

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

const KEY_TEXT: Record<KeyProblem, string> = {
  missing: 'encryption key required: this private data needs the key of its token (--key or $TAE_KEY)',
  invalid: `invalid encryption key: --key (or $TAE_KEY) must be ${ENC_KEY_FORMAT}`,
  wrong: "wrong encryption key: --key (or $TAE_KEY) is not the key this token's private data was stored with",
};

/** A key error in the command line's words, the service's answer kept after it. */
function keyWorded(e: unknown): unknown {
  if (!isTaeError(e) || typeof e.context.key !== 'string' || !Object.hasOwn(KEY_TEXT, e.context.key))
    return e;
  return new TaeError(e.code, `${KEY_TEXT[e.context.key as KeyProblem]} (${e.status} ${e.message})`, {
    status: e.status,
    context: e.context,
    cause: e,
  });
}

export async function withEngine<T>(
  flags: EngineFlags,
  use: (engine: Engine, auth: Auth) => Promise<T>,
  options: { readonly decodeThreads?: number } = {},
): Promise<T> {
  const dataDir = flags.data ?? defaultDataDir();
  // Retention is the server's (tae serve --public-ttl): a short command must not sweep by
  // another policy than the one the operator gave the server.
  const engine = await Engine.open({ dataDir, publicTtlMs: 0, ...options }).catch((e: unknown) => {
    throw inDataDir(e, dataDir);
  });
  try {
    return await use(engine, authOf(flags));
  } catch (e) {
    throw keyWorded(inDataDir(e, dataDir));
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
