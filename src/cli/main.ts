#!/usr/bin/env node
/**
 * `tae`: checks the Node version, then loads the command line (program.ts). Both are dynamic
 * imports because a static one is evaluated before this body: the version check must come
 * first so that an old Node prints one line and exits 2 (usage) instead of crashing in a native
 * package. This file imports only what that line needs: the exit codes and the sanitiser.
 */
import { EXIT } from './exit-codes.js';
import { errLine } from './terminal.js';

try {
  await import('../runtime/index.js');
} catch (e) {
  errLine(`tae: ${(e as Error).message}`);
  process.exit(EXIT.USAGE);
}
await import('./program.js');
