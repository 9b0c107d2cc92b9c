/**
 * Sigma rules matched in the decode workers (src/pipeline): a parse job whose files decode on
 * the pool reports exactly what the same job decoding inline reports, and rules a worker cannot
 * load alike are matched on the main thread instead of being lost or misnamed; a run that needs
 * only the matched events gets only those, the others counted.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import type { Insight } from '../src/insights/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtxStaged } from '../src/parse/index.js';
import { decodeFiles, pipelinePool, pipelineStage, type StagedChunk } from '../src/pipeline/index.js';
import { indexRow } from '../src/rows/index.js';
import { stagedValues } from '../src/search/packed.js';
import type { CompiledSigma } from '../src/sigma/index.js';
import { compiledRules, jobPools, pooledJobInsights } from './helpers/pooled-job.js';

const RULES = `title: Failed logon
id: 1e7a0000-0000-4000-8000-000000000001
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
---
title: Alice
id: 1e7a0000-0000-4000-8000-000000000002
level: high
logsource: {product: windows, service: security}
detection:
  selection: {TargetUserName|startswith: ali}
  condition: selection
---
title: Failed logon burst
correlation:
  type: event_count
  rules: [1e7a0000-0000-4000-8000-000000000001]
  group-by: [TargetUserName]
  timespan: 1h
  condition: {gte: 100}
generate: true
`;

// Enough records for many chunks, so that spans go to both workers.
const events: EventDescription[] = Array.from({ length: 6000 }, (_, i) => ({
  provider: 'Microsoft-Windows-Security-Auditing',
  providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
  channel: 'Security',
  computer: `HOST-${i % 7}`,
  time: new Date(Date.parse('2026-03-01T10:00:00Z') + i * 1000).toISOString(),
  eventId: i % 3 === 0 ? 4624 : 4625,
  eventData: { TargetUserName: ['alice', 'bob', 'alina', 'carol'][i % 4]!, IpAddress: '10.0.13.37' },
}));
const log = writeEvtx(events);

const compiled = (workerText: string): CompiledSigma => compiledRules(RULES, workerText);

after(async () => {
  for (const p of jobPools) await p.close();
});

async function sigmaTable(sigma: CompiledSigma, pooled: boolean): Promise<string[][]> {
  const insights = (await pooledJobInsights(sigma, pooled, [
    { name: 'logons.evtx', bytes: log },
  ])) as Insight[];
  const table = insights.find((i) => 'Table' in i && i.Table.title === 'Overview: Sigma Matches');
  assert.ok(table && 'Table' in table);
  return table.Table.data as string[][];
}

test('rules matched in the decode workers give the job the same Sigma matches as inline matching', async () => {
  const inline = await sigmaTable(compiled(RULES), false);
  const pooled = await sigmaTable(compiled(RULES), true);
  assert.deepEqual(pooled, inline);
  // 4,000 failed logons, 3,000 names starting with "ali", and correlation hits over both.
  const counts = Object.fromEntries(inline.slice(1).map((r) => [r[0], Number(r[2])]));
  assert.equal(counts['Failed logon'], 4000);
  assert.equal(counts.Alice, 3000);
  assert.ok((counts['Failed logon burst'] ?? 0) > 0);
});

test('rules a worker loads differently are matched on the main thread, never misnamed', async () => {
  // The worker's texts load the two rules in the other order: their titles differ by position.
  const swapped = RULES.split('---\n');
  const other = [swapped[1], swapped[0], swapped[2]].join('---\n');
  const inline = await sigmaTable(compiled(RULES), false);
  assert.deepEqual(await sigmaTable(compiled(other), true), inline);
});

test('the pool workers send back the positions of the rules each record matched', async () => {
  const sigma = compiled(RULES);
  const staged = pipelineStage(sigma, undefined);
  assert.ok(staged !== undefined);
  const rules = staged.rules;
  assert.ok(rules !== undefined);
  const pool = pipelinePool(2);
  jobPools.push(pool);
  const parse = parseEvtxStaged(log, { pool }, staged.stage);
  let matchedChunks = 0;
  const titles: Record<string, number> = {};
  for await (const chunk of parse.chunks()) {
    const marks = (chunk as StagedChunk).sigma;
    assert.ok(marks !== undefined, `chunk ${chunk.chunkIndex} came back unmatched`);
    assert.equal(marks.length, chunk.records.length);
    matchedChunks++;
    for (const m of marks)
      for (const k of m ?? []) titles[rules[k]!.title] = (titles[rules[k]!.title] ?? 0) + 1;
  }
  assert.ok(matchedChunks > 2);
  assert.deepEqual(titles, { 'Failed logon': 4000, Alice: 3000 });
});

test('the pool workers make the index row of each event, packed, as the staging thread would make it', async () => {
  const staged = pipelineStage(undefined, { messages: true });
  assert.ok(staged !== undefined && staged.rules === undefined);
  const pool = pipelinePool(2);
  jobPools.push(pool);
  const describe = eventDescriber();
  let rows = 0;
  for await (const chunk of parseEvtxStaged(log, { pool }, staged.stage).chunks()) {
    const packed = (chunk as StagedChunk).rows;
    assert.ok(packed !== undefined, `chunk ${chunk.chunkIndex} came back without rows`);
    const events = chunk.records.flatMap((r) => (r.event === undefined ? [] : [r.event]));
    assert.equal(packed.count, events.length);
    events.forEach((e, at) => {
      const got = stagedValues(packed, at, 3, [2], ['Title']).map((v) =>
        Buffer.isBuffer(v) ? v.toString('utf8') : v,
      );
      assert.deepEqual(got, indexRow(e, 3, [2], ['Title'], describe));
      rows++;
    });
  }
  assert.equal(rows, events.length);
});

test('an onlyMatched run sends on the matched events, the same as a whole run, and counts the others', async () => {
  const sigma = compiled(RULES);
  const pool = pipelinePool(2);
  jobPools.push(pool);
  const run = async (onlyMatched: boolean) => {
    const seen: string[] = [];
    let skipped = 0;
    const files = [{ name: 'logons.evtx', open: async () => ({ source: log, size: log.length }) }];
    await decodeFiles(
      files,
      { pool: () => pool, inlineBelowBytes: 0, sigma, onlyMatched },
      {
        event(e, _file, matched) {
          if (matched?.length) seen.push(`${e.recordId}:${matched.map((r) => r.title).join('+')}`);
          else skipped++;
          return undefined;
        },
        skipped: (count) => {
          skipped += count;
        },
      },
    );
    return { seen, skipped };
  };
  const whole = await run(false);
  const only = await run(true);
  assert.deepEqual(only.seen, whole.seen);
  assert.equal(only.skipped, whole.skipped);
  assert.equal(only.seen.length + only.skipped, events.length);
  assert.equal(only.seen.length, 5000); // a failed logon or a name starting with "ali"
});
