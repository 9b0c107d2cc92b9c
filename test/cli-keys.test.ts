/**
 * Issue 13, defect 5 on the command line: `tae jobs get`, `tae search` and `tae jobs parse`
 * say that the key is wrong when a key was given that is not the token's, and that a key is
 * required when none was given (exit 3 either way, one line on stderr).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Engine } from '../src/service/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { smallLog } from './helpers/small-log.js';

const KEY = 'the owner passphrase, 16+ chars';
const WRONG = 'another passphrase, also long';
const dir = mkdtempSync(join(tmpdir(), 'tae-cli-keys-'));
const data = join(dir, 'data');
let token = '';
let fileId = '';
let jobId = '';

before(async () => {
  ensureBuilt();
  const e = await Engine.open({ dataDir: data });
  try {
    token = (await e.createToken()).token;
    const auth = { token, encKey: KEY };
    fileId = (await e.upload({ files: [{ name: 'a.evtx', data: smallLog() }] }, auth)).file_ids[0]![0];
    jobId = (await e.createParseJob({ file_ids: [fileId], run_sigma_rules: false }, auth)).id;
    for (let i = 0; i < 600 && (await e.getJob({ job_id: jobId }, auth)).status !== 'Completed'; i++)
      await new Promise((r) => setTimeout(r, 20));
  } finally {
    await e.close();
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

const tae = (args: string[], key?: string) =>
  runTae(dir, [...args, '--data', data, '--token', token, ...(key === undefined ? [] : ['--key', key])]);

const commands = (): [string, string[]][] => [
  ['jobs get', ['jobs', 'get', jobId]],
  ['search', ['search', jobId]],
  ['jobs parse', ['jobs', 'parse', fileId]],
];

test('a wrong --key is reported as a wrong key, not as a missing one (jobs get, search, jobs parse)', () => {
  for (const [name, args] of commands()) {
    const r = tae(args, WRONG);
    assert.equal(r.status, 3, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /^tae: wrong encryption key: --key \(or \$TAE_KEY\) is not the key/, name);
    assert.equal(r.stderr.split('\n').length, 2, `${name}: one line`);
  }
});

test('no --key on private data says a key is required; a malformed one says what a key is', () => {
  for (const [name, args] of commands()) {
    const r = tae(args);
    assert.equal(r.status, 3, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /^tae: encryption key required: /, name);
  }
  const bad = tae(['jobs', 'get', jobId], 'short');
  assert.equal(bad.status, 3);
  assert.match(
    bad.stderr,
    /^tae: invalid encryption key: --key \(or \$TAE_KEY\) must be 16 to 512 printable/,
  );
  const good = tae(['jobs', 'get', jobId], KEY);
  assert.equal(good.status, 0, good.stderr);
  assert.match(good.stdout, /: Completed\n/);
});
