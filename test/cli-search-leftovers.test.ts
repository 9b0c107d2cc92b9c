/**
 * `tae search FILE` killed with SIGKILL while indexing cannot remove its (encrypted) temporary
 * index directory; the next `tae search` does, while the directory of a run that is still
 * alive (stopped with SIGSTOP, so it stays mid-index) is left alone.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';
import { bigLog, killWhileStaging, staging, until } from './helpers/killed-mid-index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-search-leftovers-'));
const temp = join(dir, 'tmp'); // TMPDIR of every run
mkdirSync(temp);
writeFileSync(join(dir, 'small.evtx'), writeEvtx(exampleEvents()));
let big: string;

before(() => {
  ensureBuilt();
  big = bigLog(join(dir, 'big.evtx'));
});
after(() => rmSync(dir, { recursive: true, force: true })); // the 32 MiB log with it

const searchBig = () =>
  spawn(process.execPath, [CLI, 'search', big, 'no-such-text'], {
    cwd: dir,
    env: { ...process.env, TMPDIR: temp, TAE_HOME: join(dir, 'home'), TAE_CACHE_DIR: join(dir, 'cache') },
    stdio: 'ignore',
  });

const searchSmall = () => runTae(dir, ['search', 'small.evtx', 'no-such-text'], { TMPDIR: temp });

test('a tae search killed with SIGKILL mid-index leaves its directory; the next run removes it', async () => {
  const killed = await killWhileStaging(searchBig(), temp, []);
  assert.deepEqual(readdirSync(temp), [killed], 'SIGKILL leaves the index directory behind');
  const next = searchSmall();
  assert.equal(next.status, 0, next.stderr);
  assert.deepEqual(readdirSync(temp), []);
});

test('the directory of a live run (stopped mid-index) is left alone by the next run', async () => {
  const live = searchBig();
  const liveExit = new Promise((r) => live.once('exit', (code, signal) => r(code ?? signal)));
  const before = readdirSync(temp);
  const entry = await until('the live run staging', () => staging(temp).find((n) => !before.includes(n)));
  live.kill('SIGSTOP'); // alive, and mid-index for as long as the next run takes
  try {
    const next = searchSmall();
    assert.equal(next.status, 0, next.stderr);
    assert.ok(staging(temp).includes(entry), 'the live index is untouched');
  } finally {
    live.kill('SIGCONT');
    live.kill('SIGTERM');
  }
  assert.equal(await liveExit, 143);
  assert.ok(!readdirSync(temp).includes(entry), 'the live run removed its own on SIGTERM');
});
