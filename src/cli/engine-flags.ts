/**
 * The commands that work on a persistent engine (tokens, files, jobs, search) share its data
 * directory (`--data`, default as `tae rules`) and the two headers of the interface as flags:
 * `--token` (or $TAE_TOKEN) and `--key` (or $TAE_KEY, which keeps the key out of `ps`).
 * One engine may use a data directory at a time: while `tae serve` runs on it, these fail.
 */
import { type Command, Option } from 'commander';
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
  const engine = await Engine.open({ dataDir: flags.data ?? defaultDataDir() });
  try {
    return await use(engine, authOf(flags));
  } finally {
    await engine.close();
  }
}
