/**
 * What the CLI says agrees with what it does (issue 47): a missing file given to `tae search`
 * is a missing file, `--sigma` with a Sigma `--rule` is refused, `--timesketch` is offered
 * only where it is accepted, a named rule that does not load is exit 3 as the README's table
 * says, file paths in tables keep their distinguishing ends, and an upload of more than 100
 * files goes in several requests.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-flags-agree-'));
writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
const GOOD = `title: Any logon failure
id: 0e7c0c52-4f7e-4d40-9f3a-000000000001
level: low
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
`;
mkdirSync(join(dir, 'rules'));
writeFileSync(join(dir, 'rules', 'good.yml'), GOOD);
writeFileSync(join(dir, 'rules', 'broken.yml'), 'title: no detection\nlogsource: {product: windows}\n');
const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

test('tae search over a file that does not exist says the file was not found, exit 3', () => {
  const r = tae('search', 'missing.evtx', 'x');
  assert.equal(r.status, 3);
  assert.equal(r.stderr, 'tae: cannot search missing.evtx: file not found (nor a job id)\n');
});

test('tae analyze refuses --sigma with a Sigma --rule in one line naming both, exit 2', () => {
  const r = tae('analyze', '--sigma', '--rule', 'rules/good.yml', 'example.evtx');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^tae: --sigma .* and --rule rules\/good\.yml .*cannot be combined[^\n]*\n$/);
});

test('--timesketch is in the help of exactly the commands that accept it', () => {
  for (const command of ['lookup', 'yara', 'tokens create', 'files list', 'jobs list']) {
    const args = command.split(' ');
    assert.doesNotMatch(tae(...args, '--help').stdout, /timesketch/i, command);
    assert.equal(tae(...args, '--timesketch').status, 2, command);
  }
  for (const command of ['sigma', 'analyze', 'search']) {
    assert.match(tae(command, '--help').stdout, /--timesketch/, command);
    assert.equal(tae(command, '--timesketch', 'example.evtx').status, 0, command);
  }
});

test('one named rule that does not load among good ones: the good ones run and the exit is 3', () => {
  const r = tae('sigma', '--json', '--rule', 'rules', 'example.evtx');
  assert.equal(r.status, 3);
  assert.match(r.stderr, /^tae: rules\/broken\.yml: no detection: .*\(rule not loaded\)\n$/);
  const matches = JSON.parse(r.stdout) as { rule_title: string }[];
  assert.ok(matches.length > 0 && matches.every((m) => m.rule_title === 'Any logon failure'));
  assert.equal(tae('analyze', '--rule', 'rules', 'example.evtx').status, 3);
  assert.equal(tae('sigma', '--rule', 'rules/good.yml', 'example.evtx').status, 0);
});

test('tae yara tables keep the end of long paths, so files of one deep folder stay apart', () => {
  const deep = join('cases', 'a-very-long-folder-name-of-an-incident-response-case', 'DeepBlueCLI-samples');
  mkdirSync(join(dir, deep), { recursive: true });
  for (const n of ['first-sample.txt', 'second-sample.txt']) writeFileSync(join(dir, deep, n), 'MARKER-9');
  writeFileSync(
    join(dir, 'marker.yar'),
    'rule marker_nine {\n  strings:\n    $m = "MARKER-9"\n  condition:\n    $m\n}\n',
  );
  const r = tae('yara', '--rule', 'marker.yar', 'cases');
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout
    .split('\n')
    .slice(2, -1)
    .map((l) => l.split('  ')[0]);
  assert.deepEqual(files.map((f) => f?.replace(/^.*\//, '')).sort(), [
    'first-sample.txt',
    'second-sample.txt',
  ]);
  assert.ok(files.every((f) => f!.startsWith('…') && f!.length <= 60));
});

test('tae files upload of 105 files stores them all, in several requests of at most 100', () => {
  mkdirSync(join(dir, 'many'));
  for (let i = 0; i < 105; i++)
    writeFileSync(join(dir, 'many', `log-${i}.evtx`), writeEvtx(exampleEvents().slice(0, 1)));
  const data = join(dir, 'engine');
  const r = tae('files', 'upload', 'many', '--data', data, '--json');
  assert.equal(r.status, 0, r.stderr);
  const ids = (JSON.parse(r.stdout) as { file_id: string }[]).map((f) => f.file_id);
  assert.equal(new Set(ids).size, 105);
});

test('an upload that a later batch would refuse (a file over 250 MB) is refused before any is stored', () => {
  mkdirSync(join(dir, 'with-big'));
  for (let i = 0; i < 101; i++) writeFileSync(join(dir, 'with-big', `note-${i}.txt`), `note ${i}`);
  writeFileSync(join(dir, 'with-big', 'zz-big.bin'), '');
  truncateSync(join(dir, 'with-big', 'zz-big.bin'), 251 * 2 ** 20); // sparse: nothing is written
  const data = join(dir, 'engine-big');
  const r = tae('files', 'upload', 'with-big', '--data', data);
  assert.equal(r.status, 3);
  assert.equal(r.stderr, 'tae: File too large: zz-big.bin exceeds the 250 MB limit\n');
  assert.deepEqual(existsSync(join(data, 'files')) ? readdirSync(join(data, 'files')) : [], []);
});
