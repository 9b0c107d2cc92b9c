/**
 * The built `tae` (dist/src/cli/main.js), rebuilt with tsconfig.build.json when any source is
 * newer than it (`npm test` builds first, so then this does nothing), and a runner for it.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist when it is missing or older than src/ or native/. */
export function ensureBuilt(): void {
  const built = existsSync(CLI) ? statSync(CLI).mtimeMs : 0;
  if (built >= Math.max(newestSource(join(ROOT, 'src')), newestSource(join(ROOT, 'native')))) return;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'ignore' });
  if (!existsSync(CLI)) throw new Error('the build did not produce dist/src/cli/main.js');
}

/** Runs `tae ARGS` in `cwd` with a clean per-user environment; stdout and stderr as text. */
export function runTae(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 << 20, // every record of a log of several MiB
    env: {
      ...process.env,
      TAE_HOME: join(cwd, '.tae-home'),
      TAE_CACHE_DIR: join(cwd, '.tae-cache'),
      TAE_RULE_PACKS: '',
      TAE_TOKEN: '',
      TAE_KEY: '',
      ...env,
    },
  });
}
