/**
 * How the CLI prints record sets (src/cli/output.ts, formats.ts), called in this process on the
 * Sigma matches of a run over the triage fixture: the format the flags choose (two at once a
 * usage error), rows streamed in batches giving what one set of every row gives (the human
 * table aside), the table's empty text, text for a person with its controls escaped, and
 * back-pressure from a slow reader honoured without losing a byte.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { Command } from 'commander';
import { matchRecords } from '../src/cli/detections.js';
import { FORMATS, type Format, formatOf, formatOptions } from '../src/cli/formats.js';
import { Output, streamRecords, writeRecords } from '../src/cli/output.js';
import type { RecordSet, Row } from '../src/cli/records.js';
import { loadSigmaRules } from '../src/cli/sigma-rules.js';
import { runSigmaOver } from '../src/cli/sigma-run.js';
import { isTaeError } from '../src/errors/index.js';
import { writeTriageFixture } from './helpers/triage-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-output-inprocess-'));
writeTriageFixture(dir);

/** A writable keeping what it is given; `slow` takes each write a tick later, past a tiny buffer. */
function sink(slow = false) {
  const chunks: Buffer[] = [];
  let drains = 0;
  const stream = new Writable({
    highWaterMark: slow ? 64 : 16 * 1024,
    write(chunk: Buffer, _enc, done) {
      chunks.push(Buffer.from(chunk));
      if (slow) setImmediate(done);
      else done();
    },
  });
  stream.on('drain', () => drains++);
  return { stream, text: () => Buffer.concat(chunks).toString('utf8'), drains: () => drains };
}

async function printed(set: RecordSet, format: Format): Promise<string> {
  const s = sink();
  await writeRecords(set, format, new Output(s.stream));
  return s.text();
}

async function streamed(set: RecordSet, batches: Row[][], format: Format) {
  const s = sink();
  const rows = await streamRecords(set, batches, format, new Output(s.stream));
  return { rows, text: s.text() };
}

let matches: RecordSet;

test('the matches of a run over the triage fixture make a record set', async () => {
  const rules = await loadSigmaRules({ ruleFiles: [join(dir, 'rules')], cache: false });
  const run = await runSigmaOver({ inputs: [join(dir, 'triage.evtx')], rules, threads: 0 });
  matches = matchRecords(run.detections);
  assert.equal(matches.rows.length, 10, 'every status runs when no choice is given');
  assert.ok(matches.columns.some((c) => c.key === 'rule_title'));
});

test('the flags choose one format: table by default, timesketch with JSON lines or CSV', () => {
  const command = formatOptions(new Command('x').exitOverride(), { timesketch: true });
  command.parse(['--csv', '--timesketch'], { from: 'user' });
  assert.equal(formatOf(command.opts()), 'timesketch-csv');
  assert.equal(formatOf({}), 'table');
  assert.equal(formatOf({ jsonl: true }), 'jsonl');
  assert.equal(formatOf({ timesketch: true }), 'timesketch');
  const refused = (flags: object, text: string) =>
    assert.throws(
      () => formatOf(flags),
      (e: unknown) => isTaeError(e) && e.code === 'INVALID_ARGUMENT' && e.message.includes(text),
    );
  refused({ json: true, csv: true }, '--json and --csv');
  refused({ json: true, timesketch: true }, 'not --json');
  const plain = formatOptions(new Command('y').exitOverride().configureOutput({ writeErr: () => {} }), {
    timesketch: false,
  });
  assert.throws(() => plain.parse(['--timesketch'], { from: 'user' }), /unknown option/);
});

test('rows streamed in batches print as one set of every row, in every format but the table', async () => {
  const rows = [...matches.rows];
  const batches = [rows.slice(0, 2), [], rows.slice(2, 7), rows.slice(7)];
  for (const format of FORMATS) {
    const whole = await printed(matches, format);
    const { rows: n, text } = await streamed(matches, batches, format);
    assert.equal(n, rows.length, format);
    if (format === 'table') {
      assert.equal(text.split('\n').filter((l) => l.includes('Failed logon')).length, 3);
      continue;
    }
    assert.equal(text, whole, format);
  }
  assert.equal(JSON.parse(await printed(matches, 'json')).length, 10);
  assert.equal((await printed(matches, 'jsonl')).trim().split('\n').length, 10);
});

test('no rows: JSON prints an empty array, CSV its header, the table its empty text', async () => {
  const none: RecordSet = { ...matches, rows: [], empty: 'No matches.' };
  assert.equal((await streamed(none, [[], []], 'json')).text, '[]\n');
  assert.equal((await streamed(none, [], 'jsonl')).text, '');
  assert.equal((await streamed(none, [], 'csv')).text, await printed(none, 'csv'));
  assert.match((await streamed(none, [], 'csv')).text, /^time,level,rule_title,/);
  assert.match(await printed(none, 'table'), /No matches\./);
});

test('text for a person is written with its controls escaped; bytes are written as they are', async () => {
  const s = sink();
  const out = new Output(s.stream);
  await out.writeText('evil\x1b[2J name\n');
  await out.write(Uint8Array.from([0x1b, 0x41]));
  await out.flush();
  const text = s.text();
  assert.ok(!text.startsWith('evil\x1b'), 'the escape in the text is shown, not sent');
  assert.match(text, /^evil.+ name\n\x1bA$/s);
});

test('a slow reader is waited for (drain), and every byte arrives in order', async () => {
  const s = sink(true);
  const out = new Output(s.stream);
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(40)}\n`);
  for (const l of lines) await out.write(l);
  await out.flush();
  assert.equal(s.text(), lines.join(''));
  assert.ok(s.drains() > 0, 'the output waited for the reader');
});
