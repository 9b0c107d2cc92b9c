/**
 * The package as npm publishes it: the built tree packed with `npm pack` (scripts ignored: the
 * build is ensured first), for the tests that install it into fresh projects.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt } from './cli-binary.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Runs a command that must succeed; its output is in the assertion message when it does not. */
export function sh(cmd: string, args: readonly string[], cwd: string, timeout = 120_000) {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Packs the package into `dir`; the tarball's path. */
export function packTarball(dir: string): string {
  ensureBuilt();
  const r = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
  const [packed] = JSON.parse(r.stdout) as { filename: string }[];
  assert.ok(packed, 'npm pack wrote a tarball');
  return join(dir, packed.filename);
}
