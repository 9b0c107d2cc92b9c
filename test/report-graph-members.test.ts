/**
 * The summary membership the report embeds for its expand script: only `summary_N` keys with
 * arrays, bounded in count and id length, and JSON that no string can break out of (`</script>`,
 * `<!--`, line separators) yet parses back to the same ids.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayBlock } from '../src/display/index.js';
import {
  groupByImage,
  MAX_MEMBERS,
  type MemberGroup,
  scriptJson,
  summaryDataBlock,
  summaryMembers,
} from '../src/report/graph-members.js';
import { buildReport } from '../src/report/index.js';

const HOSTILE = [
  '</script><script>alert(1)</script>:1@r1',
  '<!--<script>:2@r2',
  'a\u2028b&amp;\u007f:3@inferred',
];

test('script JSON escapes every < > & and line separator and parses back unchanged', () => {
  const json = scriptJson({ summary_1: HOSTILE });
  assert.doesNotMatch(json, /[<>&\u2028\u2029\u007f]/);
  assert.deepEqual(JSON.parse(json), { summary_1: HOSTILE });
});

test('summary members keep only summary_N keys holding arrays, ids as strings cut at 300 characters', () => {
  const members = summaryMembers({
    _stats_original_nodes: ['a:1@r1'],
    _stats_optimized_nodes: ['summary_1'],
    summary_1: ['cmd.exe:1@r1', 7, 'x'.repeat(1000)],
    summary_2: 'not a list',
    summary_x: ['a:1@r1'],
    ...JSON.parse('{"__proto__": ["a:1@r1"], "summary_3": {"0": "a"}}'),
  });
  assert.deepEqual(Object.keys(members), ['summary_1']);
  assert.deepEqual(members.summary_1!.slice(0, 2), ['cmd.exe:1@r1', '7']);
  assert.equal(members.summary_1![2]!.length, 300);
  assert.deepEqual(summaryMembers(null), {});
  assert.deepEqual(summaryMembers([]), {});
});

test(`summary members stop at ${MAX_MEMBERS} ids in all`, () => {
  const big = Array.from({ length: 60_000 }, (_, i) => `cmd.exe:${i}@r${i}`);
  const members = summaryMembers({ summary_1: big, summary_2: big, summary_3: big });
  assert.equal(members.summary_1!.length, 60_000);
  assert.equal(members.summary_2!.length, MAX_MEMBERS - 60_000);
  assert.equal(members.summary_3, undefined);
});

/** The ids back from the groups, as the page's script reads them. */
const ungroup = (groups: MemberGroup[]) =>
  groups.flatMap(([image, ...rest]) => rest.map((r) => (image === null ? r : `${image}:${r}`)));

test('ids are grouped by the image before their last colon, each image written once, and read back whole', () => {
  const ids = ['svchost.exe:1@r1', 'cmd.exe:2@r2', 'svchost.exe:3@r3~2', 'a:b.exe:4@inferred', 'no-colon'];
  const groups = groupByImage(ids);
  assert.deepEqual(groups, [
    ['svchost.exe', '1@r1', '3@r3~2'],
    ['cmd.exe', '2@r2'],
    ['a:b.exe', '4@inferred'],
    [null, 'no-colon'],
  ]);
  assert.deepEqual(ungroup(groups).sort(), [...ids].sort());
});

test('a graph without summaries embeds no data block', () => {
  assert.equal(summaryDataBlock({ _stats_original_nodes: [], _stats_optimized_nodes: [] }), '');
});

test('a report whose graph has hostile summary ids has one script that runs and one inert data block', async () => {
  const dot = 'digraph "g" { "summary_1" [label="x", shape=box3d]; }';
  const html = await buildReport({
    insights: [
      {
        Graph: {
          title: 'Process Inference Graph',
          data: dot,
          category: 'Process',
          graph_metadata: {
            _stats_original_nodes: [],
            _stats_optimized_nodes: ['summary_1'],
            summary_1: HOSTILE,
          },
        },
      },
    ],
  });
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  assert.deepEqual(
    scripts.map((s) => s[1]),
    [' type="application/json" id="pg-summary-data"', ''],
  );
  assert.doesNotMatch(scripts[0]![2]!, /</);
  // Read back as the page shows it: controls and line separators through the one sanitiser.
  assert.deepEqual(ungroup(JSON.parse(scripts[0]![2]!).summary_1), HOSTILE.map(displayBlock));
  assert.equal(displayBlock(HOSTILE[2]!), 'a\\u{2028}b&amp;\\x7f:3@inferred');
  assert.equal(html.split('</script>').length - 1, 2, 'no string closed a script early');
});
