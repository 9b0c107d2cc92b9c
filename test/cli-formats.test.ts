/**
 * The CLI's output formats (src/cli/formats.ts), in process: JSON keeps the column order and
 * nulls, JSON lines one object a line, CSV quotes per RFC 4180 and defuses attacker text a
 * spreadsheet would run as a formula (not plain numbers), Timesketch rows lead with its four
 * columns and skip rows without a time, and the table aligns its columns, flattens whitespace
 * and says when there is nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATTERS, type Format } from '../src/cli/formats.js';
import { column, type RecordSet } from '../src/cli/records.js';

const SET: RecordSet = {
  columns: [column('time', 'Time'), column('cmd', 'Command'), column('n', 'N')],
  rows: [
    { time: 1_700_000_000_000, cmd: '=HYPERLINK("x")', n: -5 },
    { time: null, cmd: 'a,b\n"c"', n: null },
    { time: 1_700_000_001_000, cmd: 'plain   text', n: 7, extra: 'not a column' },
  ],
  timeline: (r) =>
    typeof r.time === 'number'
      ? { time: r.time, message: String(r.cmd), description: 'Event Recorded' }
      : undefined,
  empty: 'Nothing here.',
};

const render = (format: Format, set: RecordSet = SET) => [...FORMATTERS[format](set)].join('');

test('JSON and JSON lines keep the columns in order, nulls included, and nothing else', () => {
  const rows = JSON.parse(render('json')) as Record<string, unknown>[];
  assert.deepEqual(Object.keys(rows[2]!), ['time', 'cmd', 'n']);
  assert.deepEqual(rows[1], { time: null, cmd: 'a,b\n"c"', n: null });
  assert.equal(render('json', { ...SET, rows: [] }), '[]\n');
  const lines = render('jsonl').trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.deepEqual(JSON.parse(lines[0]!), { time: 1_700_000_000_000, cmd: '=HYPERLINK("x")', n: -5 });
});

test('CSV quotes what needs quoting and defuses formulas, but not negative numbers', () => {
  assert.equal(
    render('csv'),
    'time,cmd,n\n1700000000000,"\'=HYPERLINK(""x"")",-5\n,"a,b\n""c""",\n1700000001000,plain   text,7\n',
  );
});

test('Timesketch rows lead with message, datetime, timestamp (µs) and its description, and skip rows without a time', () => {
  const rows = render('timesketch')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(rows.length, 2);
  assert.deepEqual(Object.keys(rows[0]!), [
    'message',
    'datetime',
    'timestamp',
    'timestamp_desc',
    'time',
    'cmd',
    'n',
  ]);
  assert.equal(rows[0]!.datetime, '2023-11-14T22:13:20.000Z');
  assert.equal(rows[0]!.timestamp, 1_700_000_000_000_000);
  const csv = render('timesketch-csv').split('\n');
  assert.equal(csv[0], 'message,datetime,timestamp,timestamp_desc,time,cmd,n');
  assert.equal(
    csv[1],
    '"=HYPERLINK(""x"")",2023-11-14T22:13:20.000Z,1700000000000000,Event Recorded,1700000000000,"=HYPERLINK(""x"")",-5',
  );
  assert.equal(render('timesketch', { columns: SET.columns, rows: SET.rows }), '');
});

test('the table aligns columns under their labels, flattens whitespace, and says when there is nothing', () => {
  const lines = render('table').trimEnd().split('\n');
  assert.equal(lines[0]!.indexOf('Command'), lines[1]!.indexOf(' -') + 1);
  assert.match(lines[4]!, /plain text\s+7$/);
  assert.ok(!lines.some((l) => l.includes('\n"c"')));
  assert.equal(render('table', { ...SET, rows: [] }), 'Nothing here.\n');
  assert.equal(render('table', { columns: SET.columns, rows: [] }), 'No results.\n');
});
