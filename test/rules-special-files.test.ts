/**
 * The built `tae` on rule inputs that are not regular files: a FIFO's open blocks until a
 * writer comes and a device never ends, so every rule reader (`rules add`, `--rule` of sigma,
 * analyze and yara, `--exclude-file`) refuses them by their stats, at once, naming the path.
 * Each run has a timeout, so a reader that opens the FIFO fails instead of hanging the suite.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { CLI, ensureBuilt } from './helpers/cli-binary.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-rules-special-'));
const canFifo = spawnSync('mkfifo', [join(dir, 'pipe'), join(dir, 'pipe.yar')]).status === 0;
const skip = canFifo && existsSync('/dev/zero') ? false : 'no FIFOs here';
writeFileSync(join(dir, 'small.evtx'), smallLog());

before(ensureBuilt);

/** `tae ARGS` with a 20 s bound: a hang shows as a signal, not as a stuck test run. */
const tae = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
    env: {
      ...process.env,
      TAE_HOME: join(dir, 'home'),
      TAE_CACHE_DIR: join(dir, 'cache'),
      TAE_RULE_PACKS: '',
    },
  });

test('tae rules add refuses a FIFO or a device at once with exit 3, naming the path', { skip }, () => {
  for (const [pack, kind] of [
    ['pipe', 'a FIFO \\(pipe\\)'],
    ['/dev/zero', 'a character device'],
  ] as const) {
    const r = tae('rules', 'add', pack);
    assert.equal(r.status, 3, `${pack}: ${r.signal ?? r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`^tae: cannot read rule pack ${pack}: it is ${kind}, not a regular file or directory\\n$`),
    );
  }
});

test('a FIFO inside a pack directory is passed over; the pack is added', { skip }, () => {
  const pack = join(dir, 'pack');
  mkdirSync(pack);
  spawnSync('mkfifo', [join(pack, 'stuck.yml')]);
  writeFileSync(join(pack, 'marker.yar'), 'rule marker { strings: $a = "marker" condition: $a }\n');
  const r = tae('rules', 'add', pack);
  assert.equal(r.status, 0, r.signal ?? r.stderr);
  assert.equal((JSON.parse(r.stdout) as { pack: { yara: number } }).pack.yara, 1);
});

test('--rule FIFO: sigma, analyze and yara exit 3 at once with one line naming it', { skip }, () => {
  for (const args of [
    ['sigma', '--rule', 'pipe', 'small.evtx'],
    ['analyze', '--rule', 'pipe', 'small.evtx'],
    ['analyze', '--yara', '--rule', 'pipe.yar', 'small.evtx'],
    ['yara', '--rule', 'pipe', 'small.evtx'],
  ]) {
    const r = tae(...args);
    assert.equal(r.status, 3, `${args.join(' ')}: ${r.signal ?? r.stderr}`);
    assert.match(r.stderr, /^tae: cannot read rule pipe(\.yar)?: it is a FIFO \(pipe\), not a regular file/);
    assert.equal(r.stderr.split('\n').length, 2, r.stderr);
  }
});

test('--exclude-file FIFO is the usage error a missing one is (exit 2), without waiting', { skip }, () => {
  const r = tae('sigma', '--exclude-file', 'pipe', 'small.evtx');
  assert.equal(r.status, 2, r.signal ?? r.stderr);
  assert.equal(r.stderr, 'tae: --exclude-file: cannot read pipe: it is a FIFO (pipe), not a regular file\n');
});
