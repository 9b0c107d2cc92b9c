/**
 * Every `tae` command, in the order `tae --help` lists them. Each is loaded on demand: a
 * command's module pulls in its part of the engine (SQLite, YARA-X, the Sigma compiler…),
 * and `tae parse` should not pay for the others at start-up.
 */
import type { Command } from 'commander';

type SetExit = (code: number) => void;
type Register = (program: Command, setExit: SetExit) => void;

const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  parse: async () => (await import('./parse-command.js')).parseCommand,
  analyze: async () => (await import('./analyze-command.js')).analyzeCommand,
  sigma: async () => (await import('./sigma-command.js')).sigmaCommand,
  yara: async () => (await import('./yara-command.js')).yaraCommand,
  payloads: async () => (await import('./payloads-command.js')).payloadsCommand,
  lookup: async () => (await import('./lookup-command.js')).lookupCommand,
  search: async () => (await import('./search-command.js')).searchCommand,
  tokens: async () => (await import('./tokens-command.js')).tokensCommand,
  files: async () => (await import('./files-command.js')).filesCommand,
  jobs: async () => (await import('./jobs-command.js')).jobsCommand,
  rules: async () => (await import('./rules-command.js')).rulesCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
};

/** Registers the command named by the first operand in `args`, or all of them (help, typos). */
export async function registerCommands(
  program: Command,
  args: readonly string[],
  setExit: SetExit,
): Promise<void> {
  const named = args.find((a) => !a.startsWith('-'));
  const load =
    named !== undefined && Object.hasOwn(COMMANDS, named) ? [COMMANDS[named]!] : Object.values(COMMANDS);
  for (const register of await Promise.all(load.map((l) => l()))) register(program, setExit);
}
