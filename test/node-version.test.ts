/**
 * An unsupported Node.js (the system's Node 20 here) is refused before any native package
 * loads: on Node 20 better-sqlite3 and YARA-X ended `tae sigma` with a segmentation fault and
 * no message (issue 48). The refusal is tested on a real old Node binary when one is found.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { REQUIRED_NODE, unsupportedNode } from '../src/runtime/index.js';
import { CLI, ensureBuilt } from './helpers/cli-binary.js';
import { smallLog } from './helpers/small-log.js';

const ROOT = join(import.meta.dirname, '..');
const ENTRIES = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> })
    .exports,
).filter((k) => k !== './package.json');

/** The first Node.js binary older than 22 (TAE_OLD_NODE, then the usual system paths). */
function oldNode(): { path: string; version: string } | undefined {
  const candidates = [process.env.TAE_OLD_NODE, '/usr/bin/node', '/usr/local/bin/node'];
  for (const path of candidates) {
    if (!path) continue;
    const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const major = Number(/^v(\d+)\./.exec(r.stdout ?? '')?.[1]);
    // --import (to watch dlopen) needs 18.19 or newer; older ones are not worth a branch.
    if (major >= 18 && major < 22) return { path, version: r.stdout.trim().slice(1) };
  }
  return undefined;
}

test('the required version is the one package.json engines names, compared by major and minor', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  assert.equal(pkg.engines.node, `>=${REQUIRED_NODE}`);
  for (const ok of ['22.12.0', '22.20.1', '23.0.0', '24.21.0', '100.0.0'])
    assert.equal(unsupportedNode(ok), undefined);
  for (const old of ['20.20.2', '22.11.0', '18.19.1', '21.99.0'])
    assert.equal(
      unsupportedNode(old),
      `threat-analysis-engine needs Node.js 22.12 or newer (this is Node.js ${old}): install Node.js 24 LTS`,
    );
});

const old = oldNode();
const skip = old ? false : 'no Node.js older than 22 found (set TAE_OLD_NODE to one)';
const LINE = old
  ? `threat-analysis-engine needs Node.js ${REQUIRED_NODE} or newer (this is Node.js ${old.version}): install Node.js 24 LTS`
  : '';

describe(`on an old Node.js (${old ? `${old.path}, ${old.version}` : 'none found'})`, { skip }, () => {
  const work = mkdtempSync(join(tmpdir(), 'tae-old-node-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const dlopened = join(work, 'dlopen.json');
  // Preloaded: records every native module the process loads, written when it exits.
  const watch = join(work, 'watch-dlopen.mjs');
  writeFileSync(
    watch,
    `import { writeFileSync } from 'node:fs';
const loaded = [];
const dlopen = process.dlopen;
process.dlopen = function (module, file, ...rest) { loaded.push(file); return dlopen.call(this, module, file, ...rest); };
process.on('exit', () => writeFileSync(${JSON.stringify(dlopened)}, JSON.stringify(loaded)));
`,
  );
  const run = (args: readonly string[]) => {
    rmSync(dlopened, { force: true });
    const r = spawnSync(old!.path, ['--import', watch, ...args], { cwd: ROOT, encoding: 'utf8' });
    return { ...r, dlopened: JSON.parse(readFileSync(dlopened, 'utf8')) as string[] };
  };

  for (const args of [['--version'], ['sigma', 'small.evtx']]) {
    test(`tae ${args.join(' ')} prints one line naming the required version and exits 2`, () => {
      ensureBuilt();
      writeFileSync(join(work, 'small.evtx'), smallLog());
      const r = run([CLI, ...args.map((a) => (a.endsWith('.evtx') ? join(work, a) : a))]);
      assert.equal(r.signal, null, 'no crash');
      assert.equal(r.status, 2);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `tae: ${LINE}\n`);
      assert.deepEqual(r.dlopened, []);
    });
  }

  for (const entry of ENTRIES) {
    const name = `threat-analysis-engine${entry.slice(1)}`;
    test(`import('${name}') rejects with a TaeError naming the required version, no native code loaded`, () => {
      ensureBuilt();
      const script = `import(${JSON.stringify(name)}).then(
  () => console.log('imported'),
  (e) => console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })),
);`;
      const r = run(['--input-type=module', '-e', script]);
      assert.equal(r.signal, null, 'no crash');
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), { name: 'TaeError', code: 'NATIVE_UNAVAILABLE', message: LINE });
      assert.deepEqual(r.dlopened, []);
    });
  }

  test("require('threat-analysis-engine') throws the same TaeError where Node can require ES modules", (t) => {
    const [major = 0, minor = 0] = old!.version.split('.').map(Number);
    if (major === 20 && minor < 19) return t.skip(`Node ${old!.version} cannot require ES modules`);
    ensureBuilt();
    const script = `try { require('threat-analysis-engine'); console.log('required'); }
catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`;
    const r = run(['-e', script]);
    assert.equal(r.signal, null, 'no crash');
    assert.deepEqual(JSON.parse(r.stdout), { name: 'TaeError', code: 'NATIVE_UNAVAILABLE', message: LINE });
    assert.deepEqual(r.dlopened, []);
  });
});
