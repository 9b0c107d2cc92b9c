/**
 * The builtin pack: original rules under `src/rules/builtin/` of the installed package. The
 * package root is found by walking up from this module to the directory holding
 * package.json and that folder, so it resolves from `src/` under tsx and from `dist/src/`
 * after the build alike.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILTIN_PACK = 'builtin';
const RELATIVE = join('src', 'rules', 'builtin');
const MAX_LEVELS = 8;

/**
 * The builtin pack's directory, or undefined when the package was installed without it. The
 * walk stops at the nearest package.json, so it never wanders into an enclosing project.
 */
export function builtinPackDir(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (let i = 0; i < MAX_LEVELS; i++) {
    if (existsSync(join(dir, 'package.json')))
      return existsSync(join(dir, RELATIVE)) ? join(dir, RELATIVE) : undefined;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
