/**
 * What every key of the rule cache starts with: the engine's version and the cache's format,
 * so that another release's files are never read. The version is read from the nearest
 * package.json above this module, as the CLI's version.ts reads it for `tae --version` (which
 * cannot import this folder: main.ts would load the rule library's modules for every command).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULE_CACHE_FORMAT } from './files.js';

function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; ) {
    const file = join(dir, 'package.json');
    if (existsSync(file))
      return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version);
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

let identity: string | undefined;

export function cacheIdentity(): string {
  identity ??= `tae ${packageVersion()} sigma-parse ${RULE_CACHE_FORMAT}\0`;
  return identity;
}
