/**
 * The commands that work on a persistent engine (tokens, files, jobs, search) share its data
 * directory (`--data`, default as `tae rules`) and the two headers of the interface as flags:
 * `--token` (or $TAE_TOKEN) and `--key` (or $TAE_KEY, which keeps the key out of `ps`).
 * One engine may use a data directory at a time: while `tae serve` runs on it, these fail with
 * exit code 6 (only `tae tokens create` works beside it).
 * Key errors are reworded for the command line: the service's text for a wrong key can be the
 * same as for a missing one (search's 403 is `Encryption key required` either way).
 */
import { type Command, Option } from 'commander';
import { isTaeError, TaeError } from '../errors/index.js';
import { type Auth, ENC_KEY_FORMAT, Engine, type KeyProblem } from '../service/index.js';
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
): Promise<T> {
  const engine = await Engine.open({ dataDir: flags.data ?? defaultDataDir() });
  try {
    return await use(engine, authOf(flags));
  } catch (e) {
    throw keyWorded(e);
  } finally {
    await engine.close();
  }
}
