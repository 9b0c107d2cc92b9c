#!/usr/bin/env node
/** `tae`: the command line. Exit codes: 0 ok, 1 findings (where asked), 2 usage, 3 input error. */
import { Command, CommanderError } from 'commander';
import { isTaeError } from '../errors/index.js';
import { registerCommands } from './commands.js';
import { parseCommand } from './parse-command.js';
import { rulesCommand } from './rules-command.js';
import { serveCommand } from './serve-command.js';

export const EXIT = { OK: 0, FINDINGS: 1, USAGE: 2, INPUT: 3, INTERNAL: 4 } as const;

async function main(argv: string[]): Promise<number> {
  const program = new Command()
    .name('tae')
    .description('threat-analysis-engine: offline analysis of Windows event logs')
    .option('--debug', 'print stack traces on errors')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  let exitCode: number = EXIT.OK;
  parseCommand(program, (code) => {
    exitCode = code;
  });
  registerCommands(program, (code) => {
    exitCode = code;
  });
  rulesCommand(program);
  serveCommand(program);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    const debug = program.opts().debug === true;
    if (isTaeError(e)) {
      process.stderr.write(`tae: ${e.message}\n`);
      if (debug) process.stderr.write(`${e.stack}\n`);
      if (e.code === 'INTERNAL') return EXIT.INTERNAL;
      return e.code === 'INVALID_ARGUMENT' ? EXIT.USAGE : EXIT.INPUT;
    }
    process.stderr.write(`tae: internal error: ${(e as Error).message}\n`);
    if (debug) process.stderr.write(`${(e as Error).stack}\n`);
    return EXIT.INTERNAL;
  }
}

// A reader that stops early (`tae parse x | head`) is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.OK);
});

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.INTERNAL;
  },
);
