/**
 * `npm run docs`: the reference documentation generated from the types and doc comments by
 * TypeDoc (installed apart in tools/docs from its lockfile, hence the registry), one module per
 * entry point, each front-door function on its page with its example. Skips when the registry
 * cannot be reached.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from './helpers/pack.js';

const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 20_000 });
const skip =
  ping.status === 0 ? false : `the npm registry cannot be reached (npm ping: ${ping.status ?? ping.signal})`;
const out = mkdtempSync(join(tmpdir(), 'tae-docs-'));
after(() => rmSync(out, { recursive: true, force: true }));

const FRONT_DOOR = ['parseEvtx', 'runSigma', 'runYara', 'search', 'lookup', 'buildIndex', 'sigmaHits'];

test('npm run docs warns of nothing; a page per entry point and per front-door function, with its example', {
  skip,
}, () => {
  const r = spawnSync('npm', ['run', 'docs', '--', '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // A warning is mostly a type that a public signature uses and no entry exports.
  assert.doesNotMatch(r.stdout + r.stderr, /warning/i);
  for (const entry of ['', '_evtx', '_sigma', '_yara', '_lookup', '_search', '_service', '_http'])
    assert.ok(
      existsSync(join(out, 'modules', `threat-analysis-engine${entry}.html`)),
      `module page ${entry}`,
    );
  for (const name of FRONT_DOOR) {
    const page = readFileSync(join(out, 'functions', `threat-analysis-engine.${name}.html`), 'utf8');
    assert.match(page, /id="example"/, `${name} has an example`);
  }
});
