/**
 * The built `tae` on inputs it cannot read or cannot read whole. Every command that decodes
 * EVTX (parse, analyze, sigma) exits 3 with one line for a directory without EVTX files or a special file, prints
 * error diagnostics on stderr and exits 5 when records were lost, and exits 0 on warnings
 * alone. Precedence: unreadable input (3) over lost records (5) over findings (1).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';
import { emptyLogHeader, headerAndNoise, headerOnlyLog, truncatedLog } from './helpers/damaged-logs.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-input-'));
writeFileSync(join(dir, 'small.evtx'), smallLog());
writeFileSync(join(dir, 'cut.evtx'), truncatedLog());
writeFileSync(join(dir, 'noise.evtx'), headerAndNoise(8));
writeFileSync(join(dir, 'header-only.evtx'), headerOnlyLog());
writeFileSync(join(dir, 'empty.evtx'), emptyLogHeader());
mkdirSync(join(dir, 'logs'));
writeFileSync(
  join(dir, 'failed-logon.yml'),
  'title: Failed logon\nlevel: medium\nlogsource: {product: windows, service: security}\n' +
    'detection:\n  selection: {EventID: 4625}\n  condition: selection\n',
);
const tae = (...args: string[]) => runTae(dir, args);
const DECODERS = [['parse'], ['analyze'], ['sigma', '--rule', 'failed-logon.yml']] as const;
const DIAGNOSTIC = /^[^:\n]+\.evtx: (error|warning) [a-z_.]+ chunk -?\d+ offset \d+: .+$/;
const lines = (text: string) => text.split('\n').filter(Boolean);

before(ensureBuilt);

test('a directory without EVTX files: parse, analyze and sigma exit 3 with one line naming it', () => {
  for (const command of DECODERS) {
    const r = tae(...command, 'logs');
    assert.equal(r.status, 3, `${command[0]}: ${r.stderr}`);
    assert.equal(r.stderr, 'tae: logs: no EVTX files in this directory\n', command[0]);
  }
});

test('a FIFO or /dev/zero: exit 3 at once with one line (no hang, no endless read)', {
  skip: existsSync('/dev/zero') && spawnSync('mkfifo', [join(dir, 'pipe')]).status === 0 ? false : 'no FIFOs',
}, () => {
  for (const command of DECODERS)
    for (const [input, kind] of [
      ['pipe', 'a FIFO \\(pipe\\)'],
      ['/dev/zero', 'a character device'],
    ] as const) {
      const r = spawnSync(process.execPath, [CLI, ...command, input], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(r.status, 3, `${command[0]} ${input}: ${r.signal ?? r.stderr}`);
      assert.match(r.stderr, new RegExp(`^tae: cannot open ${input}: it is ${kind}, not a regular file\\n$`));
    }
});

test('a file cut inside its chunk: every decoding command prints the error and exits 5', () => {
  for (const command of DECODERS) {
    const r = tae(...command, 'cut.evtx');
    assert.equal(r.status, 5, `${command[0]}: ${r.stderr}`);
    const errors = lines(r.stderr).filter((l) => / error /.test(l));
    assert.equal(errors.length, 1, `${command[0]} prints the error: ${r.stderr}`);
    for (const l of lines(r.stderr)) assert.match(l, DIAGNOSTIC, command[0]);
  }
  assert.match(
    tae('analyze', 'cut.evtx').stdout,
    /^Analysed 1 file, 0 records; some records could not be decoded/,
  );
});

test('a header and random bytes: one error line per chunk, exit 5', () => {
  for (const command of DECODERS) {
    const r = tae(...command, 'noise.evtx');
    assert.equal(r.status, 5, `${command[0]}: ${r.stderr}`);
    const errors = lines(r.stderr);
    assert.equal(errors.length, 8, r.stderr);
    for (const l of errors) assert.match(l, /^noise\.evtx: error chunk\.bad_magic chunk \d offset \d+: /);
  }
});

test('a header whose chunks are gone: "no chunks" error, exit 5; an empty log: warning, exit 0', () => {
  for (const command of DECODERS) {
    const r = tae(...command, 'header-only.evtx');
    assert.equal(r.status, 5, `${command[0]}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /^header-only\.evtx: error file\.no_chunks chunk -1 offset 4096: file has no chunks, /,
    );
    assert.equal(lines(r.stderr).length, 1);
    assert.equal(tae(...command, 'empty.evtx').status, 0, command[0]);
  }
  const empty = tae('parse', 'empty.evtx');
  assert.match(
    empty.stderr,
    /^empty\.evtx: warning file\.no_chunks chunk -1 offset 4096: file has no chunks/,
  );
});

test('warnings alone keep exit 0; -q silences the lines but not exit 5', () => {
  const bytes = smallLog();
  bytes[4096 + 512 + 30] = bytes[4096 + 512 + 30]! ^ 0xff; // a checksum warning, every record decoded
  writeFileSync(join(dir, 'checksum.evtx'), bytes);
  for (const command of DECODERS) assert.equal(tae(...command, 'checksum.evtx').status, 0, command[0]);
  const quiet = tae('parse', '-q', 'cut.evtx');
  assert.equal(quiet.status, 5);
  assert.equal(quiet.stderr, '');
});

test('precedence: unreadable input 3 over lost records 5 over findings 1; outputs still written', () => {
  const sigma = ['sigma', '--rule', 'failed-logon.yml', '--fail-on', 'low', '--json'] as const;
  assert.equal(tae(...sigma, 'small.evtx').status, 1);
  const lossy = tae(...sigma, 'small.evtx', 'cut.evtx');
  assert.equal(lossy.status, 5, lossy.stderr);
  assert.equal((JSON.parse(lossy.stdout) as unknown[]).length, 4, 'the matches of what was decoded');
  assert.equal(tae(...sigma, 'small.evtx', 'cut.evtx', 'logs').status, 3);
  assert.equal(tae('analyze', '--fail-on', 'low', 'small.evtx', 'cut.evtx').status, 5);
  const mixed = tae('analyze', '--out', 'out.json', 'cut.evtx', 'missing.evtx');
  assert.equal(mixed.status, 3, mixed.stderr);
  assert.ok(existsSync(join(dir, 'out.json')));
});

test('tae jobs parse of a cut file: a line naming the file that lost records, exit 5', () => {
  const data = ['--data', join(dir, 'engine-data')];
  const upload = (file: string) =>
    JSON.parse(tae('files', 'upload', file, ...data, '--json').stdout)[0].file_id as string;
  const lossy = tae('jobs', 'parse', upload('cut.evtx'), ...data);
  assert.equal(lossy.status, 5, lossy.stderr);
  assert.match(
    lossy.stderr,
    /^tae: job [a-z-]+: cut\.evtx: 0 records \(1 decode error.*: some records could not be decoded\n$/,
  );
  assert.equal(tae('jobs', 'parse', upload('small.evtx'), ...data).status, 0);
});
