import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createAnalyzer,
  flattenResults,
  importanceOfSigma,
  indexTableRow,
  RecordSet,
  renderMessage,
} from '../src/analysis/index.js';
import { isTaeError } from '../src/errors/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import {
  chartInsight,
  errorInsight,
  graphInsight,
  indexTableInsight,
  insightProblems,
  insightType,
  metadataInsight,
  type TableInsight,
  tableInsight,
  timelineInsight,
} from '../src/insights/index.js';
import { securityEvent } from './helpers/security-event.js';

const event = securityEvent;

test('the constructors build every insight type exactly as the spec shapes it', () => {
  const all = [
    timelineInsight('T', [], 'General'),
    tableInsight('Tb', ['A', 'B'], [['1', '2']], 'Process'),
    indexTableInsight(
      'Event Table',
      [[['4624', '1', '2024-03-12 10:00:00', 'P', 'C', 'm'], { a: 'b' }]],
      'General',
    ),
    chartInsight('C', [['x', 1]], 'General'),
    graphInsight(
      'G',
      'digraph {}',
      { _stats_original_nodes: [], _stats_optimized_nodes: [], summary_1: ['a'] },
      'Process',
    ),
    metadataInsight('M', { k: 'v' }, 'General'),
    errorInsight('boom'),
  ];
  assert.deepEqual(all.map(insightType), [
    'Timeline',
    'Table',
    'IndexTable',
    'Chart',
    'Graph',
    'Metadata',
    'Error',
  ]);
  for (const i of all) assert.deepEqual(insightProblems(i), []);
  assert.deepEqual(chartInsight('C', [], 'General'), {
    Chart: { title: 'C', data: [], category: 'General', display_mode: 'Chart' },
  });
});

test('the shape check names each departure from the spec', () => {
  assert.deepEqual(insightProblems({ Table: {}, Chart: {} }), [
    'keys Table,Chart: should be one of Timeline, Table, IndexTable, Chart, Graph, Metadata, Error',
  ]);
  assert.deepEqual(
    insightProblems({ Table: { title: 'x', data: [['a', 'b'], ['1']], category: 'General' } }),
    ['Table.data[1]: 1 cells, header has 2'],
  );
  const entry = {
    timestamp_start: 1.5,
    timestamp_end: null,
    record_id: 1,
    short_name: 's',
    description: 'd',
    category: 'Other',
    importance: 'Severe',
    extra: 1,
  };
  assert.deepEqual(insightProblems({ Timeline: { title: 't', data: [entry], category: 'General' } }), [
    'Timeline.data[0]: keys category,description,extra,importance,record_id,short_name,timestamp_end,timestamp_start should be category,description,importance,record_id,short_name,timestamp_end,timestamp_start',
    'Timeline.data[0].timestamp_start: not an integer',
    'Timeline.data[0].category: Other',
    'Timeline.data[0].importance: Severe',
  ]);
  const meta = { _stats_original_nodes: [], _stats_optimized_nodes: [1], other: [] };
  assert.deepEqual(
    insightProblems({ Graph: { title: 'g', data: '', graph_metadata: meta, category: 'Process' } }),
    [
      'Graph.graph_metadata._stats_optimized_nodes: not an array of strings',
      'Graph.graph_metadata.other: unexpected key',
    ],
  );
});

test('Sigma levels map one to one; an unconfirmed critical rule is capped at High', () => {
  const cases: [string | null, string | null, string][] = [
    ['informational', 'stable', 'Informational'],
    ['low', 'test', 'Low'],
    ['MEDIUM', 'test', 'Medium'],
    ['high', 'experimental', 'High'],
    ['critical', 'stable', 'Critical'],
    ['critical', 'test', 'Critical'],
    ['critical', 'experimental', 'High'],
    ['critical', 'deprecated', 'High'],
    [null, null, 'Informational'],
    ['severe', 'stable', 'Informational'],
  ];
  for (const [level, status, want] of cases)
    assert.equal(importanceOfSigma(level, status), want, `${level}/${status}`);
});

test('messages substitute %n from the description once, resolve %% parameters, else list the data', () => {
  const e = event({ data: { A: 'x%2y', B: '%%2313', C: 'c' } });
  assert.equal(
    renderMessage(e, () => 'a=%1 b=%2 c=%3!s! none=%9%n%tend%.'),
    'a=x%2y b=Unknown user name or bad password c=c none= end.',
  );
  assert.equal(
    renderMessage(e, () => ''),
    'A=x%2y B=Unknown user name or bad password C=c',
  );
  assert.equal(
    renderMessage(e, () => {
      throw new Error('lookup down');
    }),
    'A=x%2y B=Unknown user name or bad password C=c',
  );
  // Without a description each value is clipped to 80 characters, the whole line to `max`.
  assert.equal(renderMessage(event({ data: { Script: 'x'.repeat(10_000) } })), `Script=${'x'.repeat(79)}…`);
  assert.equal(
    renderMessage(event({ data: { S: 'y'.repeat(500) } }), () => '%1', 100),
    `${'y'.repeat(99)}…`,
  );
});

test('a record seen again with the same content is a duplicate; a reused record id is not', () => {
  const set = new RecordSet();
  assert.equal(set.add(event()), true);
  assert.equal(set.add(event()), false);
  assert.equal(set.add(event({ computer: 'HOST-2' })), true);
  assert.equal(set.add(event({ channel: 'System' })), true);
  // After a log is cleared, record ids start again: same id, other content.
  assert.equal(set.add(event({ timestampText: '2024-03-13T10:00:00.0000000Z' })), true);
  for (let i = 2; i < 50_000; i++) assert.equal(set.add(event({ recordId: i })), true);
  for (let i = 2; i < 50_000; i += 997) assert.equal(set.add(event({ recordId: i })), false);
  assert.equal(set.duplicates, 1 + 51);
});

test('past its capacity the duplicate check lets records through and counts them', () => {
  const analyzer = createAnalyzer({ maxDedupRecords: 2 });
  for (const id of [1, 2, 3, 3]) analyzer.add(event({ recordId: id }), { file: 'a.evtx' });
  const meta = (analyzer.finish().Overview[0] as { Metadata: { data: Record<string, string> } }).Metadata
    .data;
  assert.equal(meta.records, '4');
  assert.equal(meta.records_not_checked_for_duplicates, '2');
});

test('options are validated at the door with messages naming the option', () => {
  const bad: [object, string][] = [
    [{ maxGraphNodes: 5 }, 'options.maxGraphNodes must be an integer from 10 to 10000'],
    [{ maxDedupRecords: -1 }, 'options.maxDedupRecords must be a non-negative integer'],
    [{ describe: 'x' }, 'options.describe must be a function'],
    [{ timeRange: { start: 10, end: 5 } }, 'options.timeRange must be start ≤ end (Unix ms)'],
  ];
  for (const [options, message] of bad) {
    assert.throws(
      () => createAnalyzer(options),
      (e) => isTaeError(e) && e.code === 'INVALID_ARGUMENT' && e.message === message,
    );
  }
});

test('hostile events (odd types, missing fields, no time, huge values) never break the analysis', () => {
  const analyzer = createAnalyzer({ sigma: true });
  const odd: Partial<EvtxEvent>[] = [
    { eventId: 4688, data: { NewProcessId: 'zz', ProcessId: ['0x1', '0x2'], NewProcessName: '' } },
    { eventId: 4624, timestamp: Number.NaN, timestampText: '', data: {} },
    { eventId: 4625, data: { IpAddress: 'x'.repeat(100_000), TargetUserName: ['a', 'b'] } },
    {
      eventId: 1,
      provider: 'Microsoft-Windows-Sysmon',
      data: { ProcessGuid: '{', ProcessId: '-5', ParentProcessId: '1e99' },
    },
    {
      eventId: 13,
      provider: 'Microsoft-Windows-Sysmon',
      data: { TargetObject: '\\Run\\'.repeat(5000), Details: 'DWORD (0xzz)' },
    },
    {
      eventId: 4104,
      provider: 'Microsoft-Windows-PowerShell',
      data: { ScriptBlockText: 'iex '.repeat(50_000) },
    },
    {
      eventId: 400,
      provider: 'PowerShell',
      data: {},
      unnamedData: ['EngineVersion=2.0\nHostApplication=\u0000'],
    },
    {
      eventId: 1102,
      provider: 'Microsoft-Windows-Eventlog',
      timestamp: 8.64e15,
      data: { SubjectUserName: '"\\' },
    },
    {
      eventId: 7045,
      provider: 'Service Control Manager',
      computer: '',
      channel: '',
      data: { ServiceName: ['a'], ImagePath: '%COMSPEC%' },
    },
  ];
  for (const [i, o] of odd.entries())
    assert.equal(analyzer.add(event({ recordId: 100 + i, ...o }), { file: 'odd.evtx' }), true);
  analyzer.addSigmaMatch({ rule: { title: '' }, timestamp: Number.NaN });
  analyzer.addDiagnostics(
    [{ code: 'record.bad_binxml', message: 'bad\u0000token', chunk: 0, offset: 4096, severity: 'error' }],
    { file: 'odd.evtx' },
  );
  for (const i of flattenResults(analyzer.finish()))
    assert.deepEqual(insightProblems(i), [], JSON.stringify(i).slice(0, 300));
});

test('tables stay bounded when every event names a new program', () => {
  const analyzer = createAnalyzer();
  for (let i = 0; i < 25_000; i++) {
    analyzer.add(
      event({
        recordId: i,
        eventId: 4688,
        data: { NewProcessId: `0x${i.toString(16)}`, ProcessId: '0x4', NewProcessName: `C:\\x\\p${i}.exe` },
      }),
      { file: 'many.evtx' },
    );
  }
  const table = analyzer.finish()['Process Analysis'][0] as TableInsight;
  // 20 000 images are kept, the first 1000 rows shown (header included: 1001).
  assert.equal(table.Table.data.length, 1001);
});

test('each indicator matches its own example, and its keywords let the example through', async () => {
  const { COMMAND_LINE_INDICATORS, POWERSHELL_INDICATORS, matchIndicators } = await import(
    '../src/analysis/extract/patterns.js'
  );
  for (const list of [POWERSHELL_INDICATORS, COMMAND_LINE_INDICATORS]) {
    for (const i of list) {
      assert.ok(i.keywords.length > 0 && i.keywords.every((k) => k === k.toLowerCase()), i.label);
      assert.ok(
        matchIndicators(i.example, list).some((m) => m.label === i.label),
        `${i.label} does not match its example`,
      );
    }
  }
  assert.deepEqual(matchIndicators('notepad.exe C:\\notes.txt', COMMAND_LINE_INDICATORS), []);
});

test('an event becomes an IndexTable row with its message and string-valued data', () => {
  const e = event({ data: { TargetUserName: 'admin', Groups: ['a', 'b'] }, unnamedData: ['x'] });
  const row = indexTableRow(e, (id) => (id === 4625 ? 'An account failed to log on: %1' : null));
  assert.deepEqual(row, [
    [
      '4625',
      '1',
      '2024-03-12 10:00:00',
      'Microsoft-Windows-Security-Auditing',
      'HOST-1',
      'An account failed to log on: admin',
    ],
    { TargetUserName: 'admin', Groups: 'a, b', 'Data[0]': 'x' },
  ]);
  assert.deepEqual(insightProblems(indexTableInsight('Event Table', [row], 'General')), []);
});
