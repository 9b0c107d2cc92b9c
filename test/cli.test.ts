/** The built `tae` binary on a log written by our own writer: golden outputs and exit codes. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { matchesGolden } from './helpers/golden.js';
import { smallLog } from './helpers/small-log.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const dir = mkdtempSync(join(tmpdir(), 'tae-cli-'));
const LOG = join(dir, 'small.evtx');
writeFileSync(LOG, smallLog());

const tae = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir });

test('tae parse prints JSON lines in the evtx_dump shape', () => {
  const r = tae('parse', 'small.evtx');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim().split('\n').length, 7);
  matchesGolden('cli-parse.jsonl', r.stdout);
});

test('tae parse --format json prints one valid JSON array', () => {
  const r = tae('parse', '--format', 'json', 'small.evtx');
  assert.equal(r.status, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as unknown[]).length, 7);
});

test('tae parse --format xml prints one well-formed <Events> document', () => {
  const r = tae('parse', '-f', 'xml', '--threads', '2', 'small.evtx');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^<\?xml version="1.0" encoding="utf-8"\?>\n<Events>\n<Event /);
  assert.equal(r.stdout.match(/<Event xmlns=/g)?.length, 7);
  matchesGolden('cli-parse.xml', r.stdout);
});

test('tae parse --precision 100ns keeps seven fractional digits', () => {
  const r = tae('parse', '--precision', '100ns', 'small.evtx');
  assert.match(r.stdout, /"SystemTime":"2026-03-01T10:00:09.9999999Z"/);
});

test('tae parse --summary counts records, channels and event ids', () => {
  const r = tae('parse', '--summary', 'small.evtx');
  assert.equal(r.status, 0, r.stderr);
  matchesGolden('cli-summary.txt', r.stdout);
});

test('the same output whatever the thread count', () => {
  assert.equal(tae('parse', '-t', '2', 'small.evtx').stdout, tae('parse', '-t', '0', 'small.evtx').stdout);
});

test('exit codes: 2 for usage errors, 3 for unreadable or non-EVTX input, one line and no stack', () => {
  const usage = tae('parse', '--threads', 'many', 'small.evtx');
  assert.equal(usage.status, 2);
  assert.equal(usage.stderr, 'tae: options.threads must be an integer from 0 to 64\n');
  assert.equal(tae('parse', '--format', 'yaml', 'small.evtx').status, 2);
  assert.equal(tae('nonsense').status, 2);
  const missing = tae('parse', 'missing.evtx');
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, 'tae: cannot open missing.evtx: ENOENT\n');
  writeFileSync(join(dir, 'notes.txt'), 'not a log');
  const notEvtx = tae('parse', 'notes.txt');
  assert.equal(notEvtx.status, 3);
  assert.doesNotMatch(notEvtx.stderr, /\n\s+at /);
  assert.match(tae('--debug', 'parse', 'notes.txt').stderr, /\n\s+at /);
});

test('diagnostics go to stderr, one line each, and -q silences them', () => {
  const bytes = smallLog();
  bytes[4096 + 512 + 30] = bytes[4096 + 512 + 30]! ^ 0xff; // damage the first record's BinXML
  writeFileSync(join(dir, 'damaged.evtx'), bytes);
  const r = tae('parse', 'damaged.evtx');
  assert.equal(r.status, 0);
  assert.match(r.stderr, /^damaged\.evtx: (warning|error) chunk\.bad_data_crc chunk 0 offset 4096: /m);
  assert.equal(tae('parse', '-q', 'damaged.evtx').stderr, '');
});

test('tae --version prints the package version and the Node version, exit 0', () => {
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const r = tae('--version');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, `${version} (node ${process.versions.node})\n`);
});
