/**
 * The library's temporary indexes (`buildIndex` without `path`, `search({ files })`) and an
 * Engine in memory keep files in `tae-<kind>-<pid>-…` directories of the system's temporary
 * directory. A process killed with SIGKILL cannot remove its own; the next one that makes such
 * a directory removes those of dead processes, never one whose process is alive.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { ensureBuilt } from './helpers/cli-binary.js';
import { bigLog, killWhileStaging, until } from './helpers/killed-mid-index.js';

const DIST = join(import.meta.dirname, '..', 'dist', 'src');
const dir = mkdtempSync(join(tmpdir(), 'tae-library-search-leftovers-'));
const temp = join(dir, 'tmp'); // TMPDIR of every child
mkdirSync(temp);
const small = join(dir, 'small.evtx');
writeFileSync(small, writeEvtx(exampleEvents()));
let big: string;

before(() => {
  ensureBuilt();
  big = bigLog(join(dir, 'big.evtx'));
});
after(() => rmSync(dir, { recursive: true, force: true })); // the 32 MiB log with it

/** A Node child running `script` (an ES module body) with TMPDIR set to `temp`. */
const child = (script: string) =>
  spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: temp },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
const run = (script: string) => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: temp },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
};
const FRONT = JSON.stringify(join(DIST, 'index.js'));
const SERVICE = JSON.stringify(join(DIST, 'entry', 'service.js'));
const searchSmall = `const { search } = await import(${FRONT});
await search({ files: [${JSON.stringify(small)}] }, { search: 'x', browse_events: true });`;

test('buildIndex killed mid-index leaves its directory; search({ files }) in the next process removes it', async () => {
  const build = child(
    `const { buildIndex } = await import(${FRONT}); await buildIndex({ files: [${JSON.stringify(big)}] });`,
  );
  const killed = await killWhileStaging(build, temp, []);
  assert.match(killed, new RegExp(`^tae-search-index-${build.pid}-`));
  run(searchSmall);
  assert.deepEqual(readdirSync(temp), []);
});

test('an Engine in memory killed with SIGKILL leaves its index directory; the next one removes it', async () => {
  const engine = child(`const { Engine } = await import(${SERVICE});
await Engine.open({ memory: true }); setInterval(() => {}, 1000);`);
  const exited = new Promise((r) => engine.once('exit', r));
  try {
    await until('the engine open', () => (readdirSync(temp).length > 0 ? true : undefined));
    assert.match(readdirSync(temp)[0]!, new RegExp(`^tae-indexes-${engine.pid}-`));
  } finally {
    engine.kill('SIGKILL'); // also when the wait or the name failed: no child outlives its test
    await exited;
  }
  run(`const { Engine } = await import(${SERVICE}); await (await Engine.open({ memory: true })).close();`);
  assert.deepEqual(readdirSync(temp), []);
});

test('only our directories of dead processes go: a live one’s, a foreign tae- name and a file stay', () => {
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const live = join(temp, `tae-search-index-${process.pid}-Abc123`);
  mkdirSync(live);
  writeFileSync(join(live, 'events.sqlite.stage'), 'still being written');
  const kept = [`tae-other-${dead}-Abc123`, `tae-search-${dead}-Abc12`].map((n) => join(temp, n));
  for (const k of kept) mkdirSync(k);
  const file = join(temp, `tae-indexes-${dead}-Abc123`);
  writeFileSync(file, 'a file, not our directory');
  const gone = join(temp, `tae-indexes-${dead}-Xyz789`);
  mkdirSync(gone);
  run(searchSmall);
  assert.ok(existsSync(join(live, 'events.sqlite.stage')), 'a live process’s directory');
  for (const k of [...kept, file]) assert.ok(existsSync(k), k);
  assert.ok(!existsSync(gone), 'a dead process’s directory');
});
