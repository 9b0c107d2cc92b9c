/**
 * The packed tarball checked as the ecosystem checks packages (issue 48): publint (package.json
 * fields against the files shipped) with warnings as errors, and "are the types wrong" with the
 * ESM-only profile while the package is ESM-only (CommonJS resolutions are not judged).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { packTarball, ROOT } from './helpers/pack.js';

const work = mkdtempSync(join(tmpdir(), 'tae-package-lint-'));
after(() => rmSync(work, { recursive: true, force: true }));
let tarball = '';
before(() => {
  tarball = packTarball(work);
});

const run = (bin: string, args: readonly string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'node_modules', ...bin.split('/')), ...args], {
    cwd: work,
    encoding: 'utf8',
  });

test('publint --strict finds nothing to report in the tarball', () => {
  const r = run('publint/src/cli.js', ['run', tarball, '--strict']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /All good!/);
});

test('attw --profile esm-only finds no problem with the types of any entry point', () => {
  const r = run('@arethetypeswrong/cli/dist/index.js', [
    tarball,
    '--profile',
    'esm-only',
    '--format',
    'json',
  ]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    analysis: { entrypoints: Record<string, unknown> };
    /** By kind; the profile ignores node10 and node16-cjs resolutions but still lists them. */
    problems: Record<string, { kind: string; resolutionKind?: string; entrypoint?: string }[]>;
  };
  assert.deepEqual(Object.keys(report.analysis.entrypoints).sort(), [
    '.',
    './evtx',
    './http',
    './lookup',
    './package.json',
    './search',
    './service',
    './sigma',
    './yara',
  ]);
  const judged = Object.values(report.problems)
    .flat()
    .filter((p) => !['node10', 'node16-cjs'].includes(p.resolutionKind ?? ''));
  assert.deepEqual(judged, []);
});
