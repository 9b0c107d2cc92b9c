/**
 * The package's version, read from the nearest package.json above this module (the same file
 * from `src/` under tsx and from `dist/src/` after the build): `tae --version` shows it, and the
 * rule cache keys its files by it. A folder of its own so that the CLI's entry reads it without
 * loading the rule library.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageVersion(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; ) {
    const file = join(dir, 'package.json');
    if (existsSync(file))
      return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version);
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}
