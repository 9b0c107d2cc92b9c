/**
 * The Overview's summaries (issue 17): the logon summary (4624/4625/4648 by result, user,
 * logon type and source), event-id metrics per channel and computer, and findings per
 * computer; each after the Overview's own insights and bounded on hostile input.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GROUPS_PER_TABLE } from '../src/analysis/aggregate.js';
import { type AnalysisResults, createAnalyzer } from '../src/analysis/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import type { Insight } from '../src/insights/index.js';
import { securityEvent } from './helpers/security-event.js';

let record = 0;
const at = (minute: number) => Date.parse('2024-03-12T10:00:00Z') + minute * 60_000;
const event = (over: Partial<EvtxEvent>, data: Record<string, string> = {}): EvtxEvent => {
  const base = securityEvent();
  return securityEvent({ recordId: ++record, ...over, data: { ...base.data, ...data } });
};

function table(results: AnalysisResults, title: string): string[][] {
  const i = results.Overview.find((x: Insight) => 'Table' in x && x.Table.title === title);
  assert.ok(i !== undefined && 'Table' in i, `no ${title}`);
  return i.Table.data;
}

test('the logon summary counts failures, successes and explicit credentials by user, type and source', () => {
  const a = createAnalyzer();
  for (let i = 0; i < 3; i++) a.add(event({ timestamp: at(i) }), { file: 'f' });
  a.add(event({ eventId: 4624, timestamp: at(5) }, { LogonType: '10', Status: '', SubStatus: '' }), {
    file: 'f',
  });
  a.add(event({ eventId: 4624, timestamp: at(6), computer: 'HOST-2' }, { LogonType: '10' }), { file: 'f' });
  a.add(event({ eventId: 4648, timestamp: at(7) }, { TargetUserName: 'svc', IpAddress: '-' }), { file: 'f' });
  a.add(event({ eventId: 4634, timestamp: at(8) }), { file: 'f' }); // a logoff: not a logon
  assert.deepEqual(table(a.finish(), 'Overview: Logon Summary'), [
    [
      'Result',
      'User',
      'Logon Type',
      'Source',
      'Count',
      'First Seen',
      'Last Seen',
      'Computers',
      'Failure Reasons',
    ],
    [
      'Failed',
      'CORP\\admin',
      '3 (Network)',
      '10.0.0.9',
      '3',
      '2024-03-12 10:00:00',
      '2024-03-12 10:02:00',
      'HOST-1 (3)',
      '0xc000006a bad password (3)',
    ],
    [
      'Successful',
      'CORP\\admin',
      '10 (RemoteInteractive)',
      '10.0.0.9',
      '2',
      '2024-03-12 10:05:00',
      '2024-03-12 10:06:00',
      'HOST-1 (1), HOST-2 (1)',
      '-',
    ],
    [
      'Explicit credentials',
      'CORP\\svc',
      'Explicit credentials',
      '-',
      '1',
      '2024-03-12 10:07:00',
      '2024-03-12 10:07:00',
      'HOST-1 (1)',
      '-',
    ],
  ]);
});

test('event-id metrics count events per channel, computer and id with their share', () => {
  const a = createAnalyzer();
  for (let i = 0; i < 3; i++) a.add(event({ timestamp: at(i) }), { file: 'f' });
  a.add(event({ eventId: 4624, computer: 'HOST-2' }), { file: 'f' });
  a.add(event({ eventId: 1, channel: 'Microsoft-Windows-Sysmon/Operational' }), { file: 'f' });
  assert.deepEqual(table(a.finish(), 'Overview: Event ID Metrics'), [
    ['Channel', 'Computer', 'Event ID', 'Events', 'Percent'],
    ['Security', 'HOST-1', '4625', '3', '60.00%'],
    ['Security', 'HOST-2', '4624', '1', '20.00%'],
    ['Microsoft-Windows-Sysmon/Operational', 'HOST-1', '1', '1', '20.00%'],
  ]);
});

test('findings per computer: Sigma matches by level and key events per host, the most severe host first', () => {
  const a = createAnalyzer({ sigma: true });
  a.add(event({ computer: 'QUIET' }), { file: 'f' });
  a.add(
    event(
      { eventId: 1102, computer: 'LOUD', timestamp: at(1), provider: 'Microsoft-Windows-Eventlog' },
      { SubjectUserName: 'bob' },
    ),
    {
      file: 'f',
    },
  );
  const rule = { title: 'Log cleared', id: 'r1', level: 'high', status: 'stable', tags: [] };
  a.addSigmaMatch({ rule, recordId: record, timestamp: at(1), computer: 'LOUD' });
  a.addSigmaMatch({ rule: { ...rule, title: 'Other', level: 'low' }, timestamp: at(1), computer: 'LOUD' });
  const rows = table(a.finish(), 'Overview: Findings per Computer');
  assert.deepEqual(rows[0]!.slice(0, 10), [
    'Computer',
    'Events',
    'Sigma Matches',
    'Sigma Rules',
    'Highest Sigma Level',
    'Sigma Matches by Level',
    'Top Sigma Rules',
    'Key Events',
    'Highest Importance',
    'Top Key Events',
  ]);
  assert.deepEqual(rows[1]!.slice(0, 7), [
    'LOUD',
    '1',
    '2',
    '2',
    'high',
    'high 1, low 1',
    'Log cleared (1), Other (1)',
  ]);
  assert.equal(rows[1]![7], '1'); // the cleared log is a key event
  assert.deepEqual(rows[2]!.slice(0, 8), ['QUIET', '1', '0', '0', '-', '-', '-', '0']);
});

test("without Sigma the per-computer table says so; the summaries follow the Overview's own insights", () => {
  const a = createAnalyzer();
  a.add(event({}), { file: 'f' });
  const r = a.finish();
  const titles = r.Overview.map((i) =>
    'Metadata' in i ? i.Metadata.title : 'Chart' in i ? i.Chart.title : 'Table' in i ? i.Table.title : '',
  );
  assert.deepEqual(titles.slice(-3), [
    'Overview: Logon Summary',
    'Overview: Event ID Metrics',
    'Overview: Findings per Computer',
  ]);
  assert.equal(titles[0], 'Overview');
  assert.equal(table(r, 'Overview: Findings per Computer')[1]![2], 'not run');
});

test('hostile input: every event a new computer and id keeps each table bounded, counts adding up', () => {
  const a = createAnalyzer({ maxDedupRecords: 0 });
  const n = GROUPS_PER_TABLE + 3000;
  for (let i = 0; i < n; i++)
    a.add(
      event(
        { eventId: 4625 + (i % 7), computer: `H${i}` },
        { TargetUserName: `u${i}`, IpAddress: `10.${(i >> 8) & 255}.${i & 255}.1` },
      ),
      { file: 'f' },
    );
  const r = a.finish();
  const metrics = table(r, 'Overview: Event ID Metrics');
  assert.ok(metrics.length <= 1 + 1000 + 1);
  assert.equal(metrics.at(-1)![0], '(other)');
  assert.equal(
    metrics.slice(1).reduce((s, row) => s + Number(row[3]), 0),
    n,
  );
  assert.ok(table(r, 'Overview: Findings per Computer').length <= 1001);
  assert.ok(table(r, 'Overview: Logon Summary').length <= 1001);
});
