import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noisyStory } from '../fixtures/stories/index.js';
import { type AnalyzerOptions, createAnalyzer } from '../src/analysis/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { type GraphInsight, insightProblems } from '../src/insights/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { matchesGolden } from './helpers/golden.js';

async function noisyGraph(options: AnalyzerOptions = {}): Promise<GraphInsight['Graph']> {
  const analyzer = createAnalyzer(options);
  for (const f of noisyStory())
    for await (const r of parseEvtx(f.bytes)) analyzer.add(r.event!, { file: f.name });
  return (analyzer.finish()['Process Inference Graph'][0] as GraphInsight).Graph;
}

/** A Sysmon 1 event as the decoder gives it, for shapes too large to write as files quickly. */
function sysmonStart(host: string, pid: number, parentPid: number, image: string, time: number): EvtxEvent {
  return {
    recordId: pid,
    timestamp: time,
    timestampText: new Date(time).toISOString(),
    eventId: 1,
    qualifiers: null,
    version: 5,
    level: 4,
    task: 1,
    opcode: 0,
    keywords: '0x8000000000000000',
    provider: 'Microsoft-Windows-Sysmon',
    providerGuid: null,
    channel: 'Microsoft-Windows-Sysmon/Operational',
    computer: host,
    userSid: 'S-1-5-18',
    processId: 3140,
    threadId: 1,
    data: {
      ProcessId: String(pid),
      Image: image,
      CommandLine: `${image} /run`,
      User: 'CORP\\a.berg',
      ParentProcessId: String(parentPid),
      ParentImage: 'C:\\Windows\\explorer.exe',
    },
    unnamedData: [],
    userDataName: null,
  };
}

function graphOf(events: EvtxEvent[], options: AnalyzerOptions = {}): GraphInsight['Graph'] {
  const analyzer = createAnalyzer(options);
  for (const e of events) analyzer.add(e, { file: 'synthetic.evtx' });
  return (analyzer.finish()['Process Inference Graph'][0] as GraphInsight).Graph;
}

/** Checks what the metadata promises: every original node is shown or summarised exactly once. */
function assertConsistent(g: GraphInsight['Graph'], maxNodes: number): void {
  assert.deepEqual(insightProblems({ Graph: g }), []);
  const m = g.graph_metadata;
  assert.ok(
    m._stats_optimized_nodes.length <= maxNodes,
    `${m._stats_optimized_nodes.length} nodes > ${maxNodes}`,
  );
  const summaries = Object.keys(m).filter((k) => k.startsWith('summary_'));
  const shown = m._stats_optimized_nodes.filter((id) => !id.startsWith('summary_'));
  assert.deepEqual(
    summaries.sort(),
    m._stats_optimized_nodes.filter((id) => id.startsWith('summary_')).sort(),
  );
  const covered = [...shown, ...summaries.flatMap((k) => m[k as `summary_${string}`])];
  assert.deepEqual(covered.sort(), [...m._stats_original_nodes].sort());
  // One declaration per shown node; every quoted string closes on its own line.
  const declared = g.data.split('\n').filter((l) => /^ {4}"(?:[^"\\]|\\.)*" \[label=/.test(l));
  assert.equal(declared.length, m._stats_optimized_nodes.length);
  for (const line of g.data.split('\n')) assert.match(line, /^(?:[^"\\]|"(?:[^"\\]|\\.)*")*$/, line);
}

test('a busy host graph is merged to at most 150 nodes as its golden files pin', async () => {
  const g = await noisyGraph();
  matchesGolden('analysis-noisy-graph.dot', g.data);
  matchesGolden('analysis-noisy-graph-metadata.json', `${JSON.stringify(g.graph_metadata, null, 2)}\n`);
  assert.equal(g.graph_metadata._stats_original_nodes.length, 392);
  assert.equal(g.graph_metadata._stats_optimized_nodes.length, 145);
  assertConsistent(g, 150);
});

test('repeated leaf siblings merge first, and only when the graph is too large', async () => {
  const roomy = await noisyGraph({ maxGraphNodes: 400 });
  assert.equal(roomy.graph_metadata._stats_optimized_nodes.length, 392);
  assert.deepEqual(
    Object.keys(roomy.graph_metadata).filter((k) => k.startsWith('summary_')),
    [],
  );
  const tight = await noisyGraph({ maxGraphNodes: 200 });
  // Stage 1 alone (svchost ×120, ping ×2 per link, renderers ×3 per browser) brings 392 to 193.
  assert.equal(tight.graph_metadata._stats_optimized_nodes.length, 193);
  assert.match(tight.data, /"summary_1" \[label="svchost\.exe ×120\\nsummary of 120 processes"/);
  assert.match(tight.data, /-> "summary_1" \[label="120"\]/);
  assertConsistent(tight, 200);
});

test('every limit from 10 to 150 holds, with every original node accounted for', async () => {
  for (const limit of [150, 100, 60, 20, 10])
    assertConsistent(await noisyGraph({ maxGraphNodes: limit }), limit);
  const deepest = await noisyGraph({ maxGraphNodes: 60 });
  // Past the sibling stages the tree is cut below the deepest level that fits.
  assert.match(deepest.data, /\d+ processes\\n\d+ images: /);
});

test('a 20000-deep process chain is drawn within the limit without exhausting the stack', () => {
  const events: EvtxEvent[] = [];
  for (let i = 0; i < 20_000; i++)
    events.push(
      sysmonStart('DEEP-01', 10_000 + i, 9_999 + i, `C:\\Tools\\step${i % 7}.exe`, 1_700_000_000_000 + i),
    );
  for (const e of events.slice(1)) (e.data as Record<string, string>).ParentImage = '';
  const g = graphOf(events);
  assert.equal(g.graph_metadata._stats_original_nodes.length, 20_001);
  assertConsistent(g, 150);
});

test('more hosts than the limit share one summary for the smallest', () => {
  const events: EvtxEvent[] = [];
  for (let h = 0; h < 30; h++) {
    const host = `HOST-${String(h).padStart(2, '0')}`;
    for (let k = 0; k <= h % 3; k++)
      events.push(sysmonStart(host, 100 + k, 99 + k, `C:\\App\\app${k}.exe`, 1_700_000_000_000 + h * 10 + k));
  }
  const g = graphOf(events, { maxGraphNodes: 10 });
  assertConsistent(g, 10);
  assert.match(g.data, /label="\(21 other hosts\)";/);
});

test('labels from hostile data cannot break out of their quoted strings', () => {
  const hostile = 'C:\\x\\"]; evil [shape=none, label=<<b>x</b>>]; "\\\r\n\u0000';
  const g = graphOf([sysmonStart('HOST"\\\n', 5, 4, hostile, 1_700_000_000_000)]);
  assertConsistent(g, 150);
  assert.match(g.data, /label="HOST\\"\\\\";/);
  assert.doesNotMatch(g.data, /\r|\u0000/);
});

test('one pid and image repeated 30000 times in one second stays linear, twins and exits included', () => {
  const events: EvtxEvent[] = [];
  for (let i = 0; i < 15_000; i++) {
    const sysmon = sysmonStart('REPEAT-01', 4242, 4242, 'C:\\x\\same.exe', 1_700_000_000_000);
    events.push({ ...sysmon, recordId: 2 * i });
    events.push({
      ...sysmon,
      recordId: 2 * i + 1,
      eventId: 4688,
      provider: 'Microsoft-Windows-Security-Auditing',
      channel: 'Security',
      data: { NewProcessId: '0x1092', ProcessId: '0x1092', NewProcessName: 'C:\\x\\same.exe' },
    });
    if (i % 2 === 0)
      events.push({
        ...sysmon,
        recordId: 100_000 + i,
        eventId: 5,
        data: { ProcessId: '4242', Image: 'C:\\x\\same.exe' },
      });
  }
  const started = performance.now();
  const g = graphOf(events);
  assert.ok(performance.now() - started < 10_000, 'took too long');
  assertConsistent(g, 150);
});
