import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intrusionStory, type StoryFile } from '../fixtures/stories/index.js';
import {
  type AnalysisResults,
  type AnalyzerOptions,
  createAnalyzer,
  flattenResults,
  RESULT_TYPES,
  type SigmaMatchInput,
} from '../src/analysis/index.js';
import {
  type Insight,
  insightProblems,
  type TableInsight,
  type TimelineEntry,
} from '../src/insights/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { matchesGolden } from './helpers/golden.js';

/** The event-id dataset stands in here as one described event: 4794 (5142 stays undescribed). */
const describe = (eventId: number, provider: string) =>
  eventId === 4794 && provider === 'Microsoft-Windows-Security-Auditing'
    ? 'An attempt was made to set the Directory Services Restore Mode administrator password by %3\\%2 on %5 (status %6).'
    : undefined;

/** Two matches of one rule and one of another, as the Sigma engine would report them. */
const SIGMA: SigmaMatchInput[] = [
  {
    rule: {
      title: 'Password Spraying via SMB',
      id: 'r-1',
      level: 'high',
      status: 'test',
      tags: ['attack.t1110.003'],
    },
    recordId: 43,
    timestamp: Date.parse('2024-03-12T08:48:17.560Z'),
    channel: 'Security',
    computer: 'WS-FINANCE-07.corp.example',
  },
  {
    rule: {
      title: 'Password Spraying via SMB',
      id: 'r-1',
      level: 'high',
      status: 'test',
      tags: ['attack.t1110.003'],
    },
    recordId: 60,
    timestamp: Date.parse('2024-03-12T08:48:36.000Z'),
    channel: 'Security',
    computer: 'WS-FINANCE-07.corp.example',
  },
  {
    rule: { title: 'Security Eventlog Cleared', id: 'r-2', level: 'critical', status: 'experimental' },
    recordId: 33,
    timestamp: Date.parse('2024-03-12T09:34:43.867Z'),
    channel: 'Security',
    computer: 'SRV-FILES-02.corp.example',
  },
];

async function analyze(files: readonly StoryFile[], options: AnalyzerOptions): Promise<AnalysisResults> {
  const analyzer = createAnalyzer(options);
  for (const f of files) {
    const parse = parseEvtx(f.bytes, { label: f.name });
    for await (const r of parse) analyzer.add(r.event!, { file: f.name });
    analyzer.addDiagnostics(parse.diagnostics, { file: f.name });
  }
  for (const m of SIGMA) analyzer.addSigmaMatch(m);
  return analyzer.finish();
}

const storyResults = () => analyze(intrusionStory(), { sigma: true, describe });
const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;
const slug = (t: string) => t.toLowerCase().replace(/[^a-z]+/g, '-');
const overview = (r: AnalysisResults): Record<string, string | undefined> =>
  (r.Overview[0] as { Metadata: { data: Record<string, string> } }).Metadata.data;
const timeline = (r: AnalysisResults): TimelineEntry[] =>
  (r['Key Event Timeline'][0] as { Timeline: { data: TimelineEntry[] } }).Timeline.data;
const table = (r: AnalysisResults, title: string): string[][] => {
  const t = flattenResults(r).find((i): i is TableInsight => 'Table' in i && i.Table.title === title);
  assert.ok(t, `no table ${title}`);
  return t.Table.data;
};

test('every result type of the intrusion story matches its golden file', async () => {
  const results = await storyResults();
  for (const type of RESULT_TYPES) matchesGolden(`analysis-story-${slug(type)}.json`, json(results[type]));
});

test('every insight of the story is exactly shaped as the spec says', async () => {
  const insights: Insight[] = flattenResults(await storyResults());
  assert.equal(insights.length, 19);
  for (const i of insights) assert.deepEqual(insightProblems(i), [], JSON.stringify(i).slice(0, 200));
});

test('the shadow-copy duplicate file adds no records and no counts (a key event may name the copy)', async () => {
  const [ws, server, vss] = intrusionStory();
  // Either copy holds the record; the smaller name is named, whichever was read first.
  const withCopy = JSON.parse(
    JSON.stringify(await analyze([ws!, server!, vss!], {})).replaceAll(
      '"SRV-FILES-02-vss.evtx"]',
      '"SRV-FILES-02.evtx"]',
    ),
  );
  const without = await analyze([ws!, server!], {});
  const meta = overview(withCopy);
  assert.equal(meta.records, '233');
  assert.equal(meta.duplicate_records, '20');
  assert.match(meta.files ?? '', /SRV-FILES-02-vss\.evtx: 0 records \(20 duplicates skipped\)/);
  for (const type of RESULT_TYPES.filter((t) => t !== 'Overview'))
    assert.deepEqual(withCopy[type], without[type], `${type} changed by the duplicate file`);
});

test('children of a reused pid attach to the process that held it at the time', async () => {
  const r = await storyResults();
  const dot = (r['Process Inference Graph'][0] as { Graph: { data: string } }).Graph.data;
  assert.match(dot, /"cmd\.exe:6700@r4" -> "whoami\.exe:6912@r5"/);
  assert.match(dot, /"cmd\.exe:6700@r4" -> "certutil\.exe:6972@r6"/);
  assert.match(dot, /"powershell\.exe:6700@r8" -> "net\.exe:7236@r12"/);
  // reg.exe is logged without ParentProcessName: pid and time alone must pick PowerShell.
  assert.match(dot, /"powershell\.exe:6700@r8" -> "reg\.exe:7432@r17"/);
  assert.doesNotMatch(dot, /"cmd\.exe:6700@r4" -> "(net|reg)\.exe/);
});

test('the timeline tells the story in order, with Sigma importance from level and status', async () => {
  const names = timeline(await storyResults()).map((e) => `${e.short_name}/${e.importance}`);
  const order = [
    'Failed logon burst/High',
    'Password Spraying via SMB/High',
    'Logon after failed attempts/Critical',
    'Service installed/High',
    'Scheduled task created/Medium',
    'Log cleared/High',
    'RDP logon/Medium',
    'Suspicious PowerShell/High',
    'Added to privileged group/High',
    'WMI event subscription/High',
    // experimental status caps a critical rule at High.
    'Security Eventlog Cleared/High',
  ];
  let at = -1;
  for (const n of order) {
    const i = names.indexOf(n, at + 1);
    assert.ok(i > at, `${n} missing or out of order in ${names.join(', ')}`);
    at = i;
  }
});

test('key events without a summary show the described Windows message, else the event data', async () => {
  const entries = timeline(await storyResults());
  const dsrm = entries.find((e) => e.short_name === 'DSRM password set');
  assert.equal(
    dsrm?.description,
    'An attempt was made to set the Directory Services Restore Mode administrator password by CORP\\m.jensen on SRV-FILES-02 (status 0x0). — SRV-FILES-02.corp.example',
  );
  const share = entries.find((e) => e.short_name === 'Network share added');
  assert.match(
    share?.description ?? '',
    /^SubjectUserSid=S-1-5-21-\S+ SubjectUserName=m\.jensen .*ShareName=\\\\\*\\drop/,
  );
});

test('the timeline and the graph do not depend on the order files are read in', async () => {
  const files = intrusionStory();
  const forward = await analyze(files, { sigma: true, describe });
  const backward = await analyze([...files].reverse(), { sigma: true, describe });
  assert.deepEqual(backward['Key Event Timeline'], forward['Key Event Timeline']);
  assert.deepEqual(backward['Process Inference Graph'], forward['Process Inference Graph']);
});

test('Sigma matches are a table only when the job ran Sigma rules', async () => {
  const withSigma = await storyResults();
  assert.deepEqual(table(withSigma, 'Overview: Sigma Matches').slice(1), [
    [
      'Security Eventlog Cleared',
      'critical',
      '1',
      '2024-03-12 09:34:43',
      '2024-03-12 09:34:43',
      'SRV-FILES-02.corp.example (1)',
      'r-2',
      '-',
    ],
    [
      'Password Spraying via SMB',
      'high',
      '2',
      '2024-03-12 08:48:17',
      '2024-03-12 08:48:36',
      'WS-FINANCE-07.corp.example (2)',
      'r-1',
      'attack.t1110.003',
    ],
  ]);
  const without = await analyze(intrusionStory(), {});
  // The Overview's own four insights, then the logon, event-id and per-computer summaries.
  assert.equal(without.Overview.length, 7);
  assert.ok(!without.Overview.some((i) => 'Table' in i && i.Table.title === 'Overview: Sigma Matches'));
});

test('a time range keeps only the events inside it', async () => {
  const start = Date.parse('2024-03-12T09:30:00Z');
  const r = await analyze(intrusionStory(), { timeRange: { start } });
  const meta = overview(r);
  assert.equal(meta.records, '33');
  assert.equal(meta.records_outside_time_range, '200');
  assert.ok(timeline(r).every((e) => e.timestamp_start >= start));
  assert.deepEqual(
    table(r, 'Authentication')
      .slice(1)
      .map((row) => row[0]),
    ['CORP\\m.jensen', 'CORP\\m.jensen', 'CORP\\m.jensen', 'SRV-FILES-02\\backdoor'],
  );
});
