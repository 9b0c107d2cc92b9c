/**
 * What `tae search` prints (issue 47): `--jsonl` gives each event as data (ids as numbers, the
 * event data as an object, its channel and file); the table says which events of how many it
 * shows and how to get the next page, for files and for a job; and the table's Event Data
 * shows the matched text even when it lies far into the event's data.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-search-output-'));
/** 25 process creations; the command line, matched by `needle`, comes after 300 characters. */
const events = (): EventDescription[] =>
  Array.from({ length: 25 }, (_, i) => ({
    provider: 'Microsoft-Windows-Sysmon',
    providerGuid: '5770385F-C22A-43E0-BF4C-06F5698FFBD9',
    channel: 'Microsoft-Windows-Sysmon/Operational',
    computer: 'WS-07',
    time: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(),
    eventId: 1,
    eventData: {
      Description: `a long description of the process ${'padding '.repeat(40)}`,
      CommandLine: `tool.exe --needle-${i}`,
    },
  }));
writeFileSync(join(dir, 'sysmon.evtx'), writeEvtx(events()));
const tae = (...args: string[]) => runTae(dir, args);
const lastLine = (s: string) => s.trimEnd().split('\n').at(-1);

before(ensureBuilt);

test('--jsonl gives ids as numbers, the event data as an object, the channel and the file', () => {
  const r = tae('search', 'sysmon.evtx', 'needle-7', '--jsonl');
  assert.equal(r.status, 0, r.stderr);
  const [event] = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(event.event_id, 1);
  assert.equal(event.record_id, 8);
  assert.equal(event.channel, 'Microsoft-Windows-Sysmon/Operational');
  assert.equal(event.file, 'sysmon.evtx');
  assert.deepEqual(Object.keys(event.event_data), ['Description', 'CommandLine']);
  assert.equal(event.event_data.CommandLine, 'tool.exe --needle-7');
});

test('the table says which events of how many it shows, and the next page to ask for', () => {
  const first = tae('search', 'sysmon.evtx', 'needle', '--show', '10');
  assert.equal(first.status, 0, first.stderr);
  assert.equal(lastLine(first.stdout), 'Events 1–10 of 25; next page: --page 2');
  assert.equal(
    lastLine(tae('search', 'sysmon.evtx', 'needle', '--show', '10', '--page', '3').stdout),
    'Events 21–25 of 25',
  );
  const past = tae('search', 'sysmon.evtx', 'needle', '--show', '10', '--page', '4');
  assert.equal(lastLine(past.stdout), 'No events on page 4: 25 match (3 pages of 10)');
  assert.equal(lastLine(tae('search', 'sysmon.evtx', '').stdout), 'Events 1–10 of 25; next page: --page 2');
  const window = ['--from', '2026-03-01T10:00:05Z', '--to', '2026-03-01T10:00:09Z'];
  assert.equal(lastLine(tae('search', 'sysmon.evtx', '', ...window).stdout), 'Events 1–5 of 5');
  assert.equal(lastLine(tae('search', 'sysmon.evtx', 'needle-1', ...window).stdout), 'No matching events.');
  const jsonl = tae('search', 'sysmon.evtx', 'needle', '--show', '10', '--jsonl');
  assert.equal(jsonl.stderr, 'tae: Events 1–10 of 25; next page: --page 2\n');
});

test("the table's Event Data shows the matched text even past the column's width", () => {
  const r = tae('search', 'sysmon.evtx', 'needle-12');
  assert.equal(r.status, 0, r.stderr);
  const row = r.stdout.split('\n')[2]!;
  assert.match(row, /…[^\n]*CommandLine=tool\.exe --needle-12/);
});

test('a job search says the next page exists (the endpoint gives no total)', () => {
  const data = join(dir, 'engine');
  const fileId = JSON.parse(tae('files', 'upload', 'sysmon.evtx', '--data', data, '--json').stdout)[0]
    .file_id;
  const job = JSON.parse(tae('jobs', 'parse', fileId, '--data', data, '--json').stdout).id as string;
  const r = tae('search', job, 'needle', '--show', '20', '--data', data);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(lastLine(r.stdout), 'Events 1–20; next page: --page 2');
  const last = tae('search', job, 'needle', '--show', '20', '--page', '2', '--data', data, '--jsonl');
  assert.equal(last.stderr, 'tae: Events 21–25\n');
  assert.equal(JSON.parse(last.stdout.split('\n')[0]!).record_id, 21);
});
