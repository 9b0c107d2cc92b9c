/**
 * Directories, `-` and `@LIST` as inputs of every command that reads files (src/cli/inputs.ts),
 * on a generated tree: which files each command reads, in what order, the one policy for
 * dot-names and links, and the errors for bad lists and bad directory entries.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';
import { smallLogEvents } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-inputs-'));
/** A log of the first `n` events of the small log, so each file's record count names it. */
const log = (n: number) => writeEvtx(smallLogEvents().slice(0, n));
const put = (path: string, bytes: Uint8Array | string) => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), bytes);
};
put('logs/a.evtx', log(1));
put('logs/sub/b.EVTX', log(2));
put('logs/sub/renamed.log', log(3)); // EVTX by its magic only
put('logs/notes.txt', 'MARKER-7 is not a log');
put('logs/.d.evtx', log(4));
put('logs/.hidden/c.evtx', log(5));
put('outside/e.evtx', log(6));
symlinkSync(join(dir, 'outside', 'e.evtx'), join(dir, 'logs', 'link.evtx'));
symlinkSync(join(dir, 'outside'), join(dir, 'logs', 'linkdir'));
put('nothing/readme.md', 'no logs here');
put('marker.yar', 'rule marker { strings: $m = "MARKER-7" condition: $m }\n');
const READ_FROM_LOGS = ['logs/a.evtx 1', 'logs/link.evtx 6', 'logs/sub/b.EVTX 2', 'logs/sub/renamed.log 3'];

const tae = (...args: string[]) => runTae(dir, args);
/** `tae ARGS` with `input` on standard input. */
const taeIn = (input: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...process.env, TAE_HOME: join(dir, '.tae-home') },
  });

/** The files `tae parse --summary` read, as `path records`, in the order read. */
function summaryFiles(stdout: string): string[] {
  return [...stdout.matchAll(/^(\S+): (\d+) records? in/gm)].map((m) => `${m[1]} ${m[2]}`);
}

before(ensureBuilt);

test('a directory is searched recursively for EVTX files by extension or magic, in name order', () => {
  const r = tae('parse', '--summary', 'logs');
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(summaryFiles(r.stdout), READ_FROM_LOGS);
});

test('inside a directory dot-names are skipped, links to directories are not followed (a warning)', () => {
  const r = tae('parse', '--summary', 'logs');
  assert.equal(
    r.stderr,
    `tae: warning: ${join('logs', 'linkdir')}: not followed (a link to a directory, or a broken link)\n`,
  );
  const named = tae('parse', '--summary', 'logs/.d.evtx', 'logs/.hidden');
  assert.equal(named.status, 0, named.stderr);
  assert.deepEqual(summaryFiles(named.stdout), ['logs/.d.evtx 4', 'logs/.hidden/c.evtx 5']);
});

test('a file reached twice (named, in a directory, through a link) is read once, where first reached', () => {
  const r = tae('parse', '--summary', 'outside/e.evtx', 'logs/a.evtx', 'logs');
  assert.deepEqual(summaryFiles(r.stdout), [
    'outside/e.evtx 6',
    'logs/a.evtx 1',
    'logs/sub/b.EVTX 2',
    'logs/sub/renamed.log 3',
  ]);
});

test('@LIST and - read paths one a line (CRLF, blank lines, directories) like operands', () => {
  put('list.txt', 'outside/e.evtx\r\n\r\nlogs/sub\n');
  const fromList = tae('parse', '--summary', '@list.txt', 'logs/a.evtx');
  assert.equal(fromList.status, 0, fromList.stderr);
  const expected = ['outside/e.evtx 6', 'logs/sub/b.EVTX 2', 'logs/sub/renamed.log 3', 'logs/a.evtx 1'];
  assert.deepEqual(summaryFiles(fromList.stdout), expected);
  const fromStdin = taeIn('outside/e.evtx\nlogs/sub\n', 'parse', '--summary', '-', 'logs/a.evtx');
  assert.equal(fromStdin.status, 0, fromStdin.stderr);
  assert.deepEqual(summaryFiles(fromStdin.stdout), expected);
});

test('analyze, sigma and payloads read a directory exactly as its files named one by one', () => {
  const named = ['logs/a.evtx', 'logs/link.evtx', 'logs/sub/b.EVTX', 'logs/sub/renamed.log'];
  for (const command of [
    ['analyze', '--json'],
    ['sigma', '--json'],
    ['payloads', '-f', 'jsonl'],
  ]) {
    const byDir = tae(...command, 'logs');
    const byName = tae(...command, ...named);
    assert.equal(byDir.status, 0, `${command[0]}: ${byDir.stderr}`);
    assert.equal(byDir.stdout, byName.stdout, command[0]);
  }
  const analyzed = tae('analyze', 'logs');
  assert.match(analyzed.stdout, /^Analysed 4 files, 6 records \(6 duplicates skipped\)/);
});

test('yara and files upload take every regular file of a directory, dot-names still skipped', () => {
  put('logs/.hidden/marker.bin', 'MARKER-7');
  const yara = tae('yara', '--json', '--rule', 'marker.yar', 'logs');
  assert.equal(yara.status, 0, yara.stderr);
  assert.deepEqual(
    (JSON.parse(yara.stdout) as { file: string }[]).map((m) => m.file),
    [join('logs', 'notes.txt')],
  );
  const upload = tae('files', 'upload', '--json', '--data', 'engine', 'logs');
  assert.equal(upload.status, 0, upload.stderr);
  assert.deepEqual(
    (JSON.parse(upload.stdout) as { file_name: string }[]).map((f) => f.file_name),
    ['a.evtx', 'link.evtx', 'notes.txt', 'b.EVTX', 'renamed.log'],
  );
});

test('bad lists stop the run with exit 3 and one line: missing, empty, - with nothing on stdin', () => {
  const missing = tae('analyze', '@nope.txt');
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, 'tae: cannot read list @nope.txt: ENOENT\n');
  put('empty.txt', '\n\n');
  const empty = tae('sigma', '@empty.txt');
  assert.equal(empty.status, 3);
  assert.equal(empty.stderr, 'tae: @empty.txt lists no paths\n');
  const none = taeIn('', 'parse', '-');
  assert.equal(none.status, 3);
  assert.equal(none.stderr, 'tae: standard input (-) lists no paths\n');
  assert.equal(taeIn('', 'parse', '-', '-').status, 2, '- twice is a usage error');
});

test('a directory without EVTX files is exit 3 naming it; the other inputs are still read', () => {
  const r = tae('parse', '--summary', 'nothing', 'logs/a.evtx');
  assert.equal(r.status, 3);
  assert.equal(r.stderr, 'tae: nothing: no EVTX files in this directory\n');
  assert.deepEqual(summaryFiles(r.stdout), ['logs/a.evtx 1']);
  assert.equal(tae('analyze', 'nothing').status, 3);
});

test('an unreadable directory inside: exit 3 with a line naming it, the rest is read', {
  skip: process.getuid?.() === 0 ? 'root reads everything' : false,
}, () => {
  put('locked/ok.evtx', log(1));
  put('locked/shut/x.evtx', log(2));
  chmodSync(join(dir, 'locked', 'shut'), 0);
  try {
    const r = tae('analyze', '--json', 'locked');
    assert.equal(r.status, 3);
    assert.equal(r.stderr, `tae: cannot open directory ${join('locked', 'shut')}: EACCES\n`);
  } finally {
    chmodSync(join(dir, 'locked', 'shut'), 0o700);
  }
});

test('a directory nested deeper than 32 levels is exit 3 with a line naming it; the rest is read', () => {
  const deep = join('deep', ...Array.from({ length: 33 }, (_, i) => `d${i}`));
  put(join(deep, 'x.evtx'), log(1));
  put('deep/top.evtx', log(2));
  const r = tae('parse', '--summary', 'deep');
  assert.equal(r.status, 3);
  assert.match(r.stderr, /^tae: deep\/d0(\/d\d+){31}\/d32: not read, nested deeper than 32 levels\n$/);
  assert.deepEqual(summaryFiles(r.stdout), ['deep/top.evtx 2']);
});

test('every command that reads files states the input policy in its --help', () => {
  for (const command of [['analyze'], ['parse'], ['sigma'], ['payloads'], ['yara'], ['files', 'upload']]) {
    const help = tae(...command, '--help').stdout.replace(/\s+/g, ' ');
    assert.match(help, /Inputs: files; directories, searched recursively/, command.join(' '));
    assert.match(
      help,
      /names starting with '\.' are skipped .* links to files are followed, links to directories are not/,
    );
  }
});
