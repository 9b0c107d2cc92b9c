/**
 * `tae search` over EVTX files in place (src/cli/search-files.ts): the same answers as the
 * search of a job over the same file, `--all` streaming past the endpoint's 10 pages of 100
 * in every format, and the temporary index kept in an owner-only directory that is gone after
 * the command, after an error and after Ctrl-C.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-search-files-'));
const temp = join(dir, 'tmp'); // TMPDIR of every run: what is left in it is what a run left behind
mkdirSync(temp);
writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
/** 2,500 process creations, one a second; every fifth runs powershell. */
const MANY = 2500;
const manyEvents = (): EventDescription[] =>
  Array.from({ length: MANY }, (_, i) => ({
    provider: 'Microsoft-Windows-Sysmon',
    providerGuid: '5770385F-C22A-43E0-BF4C-06F5698FFBD9',
    channel: 'Microsoft-Windows-Sysmon/Operational',
    computer: 'WS-01',
    time: new Date(Date.UTC(2026, 2, 1, 10) + i * 1000).toISOString(),
    eventId: 1,
    eventData: {
      Image: i % 5 === 0 ? 'C:\\Windows\\System32\\powershell.exe' : `C:\\Tools\\tool${i}.exe`,
      CommandLine: `run ${i}`,
    },
  }));
mkdirSync(join(dir, 'many'));
writeFileSync(join(dir, 'many', 'sysmon.evtx'), writeEvtx(manyEvents()));

const tae = (...args: string[]) => runTae(dir, args, { TMPDIR: temp });
const leftInTemp = () => readdirSync(temp);
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, string>);

before(ensureBuilt);

test('searching a file answers what the search of a job over that file answers, and leaves nothing', () => {
  const data = join(dir, 'engine');
  const upload = tae('files', 'upload', 'example.evtx', '--data', data, '--json');
  const fileId = JSON.parse(upload.stdout)[0].file_id as string;
  const job = JSON.parse(tae('jobs', 'parse', fileId, '--data', data, '--json').stdout).id as string;
  const requests = [
    ['powershell'],
    ['', '--filter', 'event_id:equals:4625', '--show', '3', '--page', '2'],
    [
      '',
      '--filter',
      'details.TargetUserName:starts_with:ADM',
      '--filter',
      'provider:does_not_contain:sysmon',
    ],
    ['', '--from', '2024-03-12T08:49:00Z', '--to', '2024-03-12T08:49:30Z'],
  ];
  // A job's search answers in the endpoint's shape, which names no channel or file.
  const unplaced = (text: string) => jsonLines(text).map((r) => ({ ...r, channel: null, file: null }));
  for (const request of requests) {
    const byJob = tae('search', job, ...request, '--data', data, '--jsonl');
    const byFile = tae('search', 'example.evtx', ...request, '--jsonl');
    assert.equal(byFile.status, 0, byFile.stderr);
    assert.deepEqual(unplaced(byFile.stdout), jsonLines(byJob.stdout), request.join(' '));
    assert.ok(jsonLines(byFile.stdout).every((r) => r.file === 'example.evtx' && r.channel));
    assert.ok(byFile.stdout !== '', `${request.join(' ')} matches something`);
  }
  const summary = tae('search', 'example.evtx', '--summary');
  assert.equal(summary.status, 0, summary.stderr);
  assert.equal(JSON.parse(summary.stdout).status, 'Completed');
  assert.deepEqual(leftInTemp(), []);
});

test('--all streams every match past 10 pages of 100, in order, in every format', () => {
  const all = tae('search', 'many', '--all', '--jsonl');
  assert.equal(all.status, 0, all.stderr);
  const rows = jsonLines(all.stdout);
  assert.equal(rows.length, MANY);
  assert.deepEqual(
    rows.map((r) => Number(r.record_id)),
    Array.from({ length: MANY }, (_, i) => i + 1),
  );
  const shell = tae('search', 'many', 'POWERSHELL.EXE', '--all', '--json');
  assert.deepEqual(
    (JSON.parse(shell.stdout) as { record_id: string }[]).map((r) => Number(r.record_id)),
    Array.from({ length: MANY / 5 }, (_, i) => i * 5 + 1),
  );
  const csv = tae('search', 'many', 'powershell', '--all', '--csv').stdout.trim().split('\n');
  assert.equal(csv.length, 1 + MANY / 5, 'one header, then one line a match');
  const table = tae('search', 'many', 'powershell', '--all').stdout.trim().split('\n');
  assert.equal(table.filter((l) => l.startsWith('Event ID')).length, 1, 'one table header');
  assert.equal(table.length, 2 + MANY / 5);
  const none = tae('search', 'many', 'no such text', '--all', '--json');
  assert.equal(none.stdout, '[]\n');
  assert.deepEqual(leftInTemp(), []);
});

test('a bad request after indexing is a usage error, and the index is removed', () => {
  const bad = tae('search', 'example.evtx', '--filter', 'details.bad/name:equals:x');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^tae: Invalid request: filter\[0\]\.field must be one of /);
  assert.deepEqual(leftInTemp(), []);
});

test('--all and --sigma with a job id are usage errors; --all takes no --page', () => {
  const jobId = '0b6f3e0e-2c5a-4d8e-9a4b-5f7c1d2e3f40'; // shaped as a job id: not taken for a file
  assert.equal(tae('search', jobId, '--all').status, 2);
  assert.equal(tae('search', jobId, '--sigma').status, 2);
  assert.equal(tae('search', 'many', '--all', '--page', '2').status, 2);
});

test('Ctrl-C while matches stream: exit 130 and the owner-only index directory is gone', async () => {
  const child = spawn(process.execPath, [CLI, 'search', 'many', '--all', '--jsonl'], {
    cwd: dir,
    env: {
      ...process.env,
      TMPDIR: temp,
      TAE_HOME: join(dir, '.tae-home'),
      TAE_CACHE_DIR: join(dir, '.tae-cache'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // stdout is not read until the index exists: the command waits on a full pipe, mid-stream.
  let made: string[] = [];
  for (let i = 0; i < 300 && made.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 50));
    made = leftInTemp();
  }
  assert.equal(made.length, 1, 'the index directory exists while the command runs');
  assert.match(made[0]!, /^tae-search-/);
  assert.equal(statSync(join(temp, made[0]!)).mode & 0o777, 0o700);
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGINT');
  child.stdout.resume();
  assert.equal(await exited, 130);
  assert.deepEqual(leftInTemp(), []);
});
