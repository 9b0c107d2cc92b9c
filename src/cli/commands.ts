/** Every `tae` command besides parse, rules and serve, registered in the order `tae --help` lists them. */
import type { Command } from 'commander';
import { analyzeCommand } from './analyze-command.js';
import { filesCommand } from './files-command.js';
import { jobsCommand } from './jobs-command.js';
import { lookupCommand } from './lookup-command.js';
import { searchCommand } from './search-command.js';
import { sigmaCommand } from './sigma-command.js';
import { tokensCommand } from './tokens-command.js';
import { yaraCommand } from './yara-command.js';

export function registerCommands(program: Command, setExit: (code: number) => void): void {
  analyzeCommand(program, setExit);
  sigmaCommand(program, setExit);
  yaraCommand(program, setExit);
  lookupCommand(program);
  searchCommand(program);
  tokensCommand(program);
  filesCommand(program);
  jobsCommand(program, setExit);
}
