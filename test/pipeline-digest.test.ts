/**
 * Digests (src/analysis/digest.ts) made in the decode workers: a parse job whose workers send
 * each event's digest instead of the event reports exactly what the same job decoding inline
 * reports, and the workers send on only the events that matched a rule, beside their rows.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { intrusionStory, noisyStory } from '../fixtures/stories/index.js';
import { Digester } from '../src/analysis/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtx, parseEvtxStaged } from '../src/parse/index.js';
import { pipelinePool, pipelineStage, type StagedChunk } from '../src/pipeline/index.js';
import type { CompiledSigma } from '../src/sigma/index.js';
import { compiledRules, jobPools, pooledJobInsights } from './helpers/pooled-job.js';

const RULES = `title: Failed logon
id: 2d16e000-0000-4000-8000-000000000001
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
---
title: Service installed
id: 2d16e000-0000-4000-8000-000000000002
level: high
logsource: {product: windows, service: system}
detection:
  selection: {EventID: 7045}
  condition: selection
---
title: Failed logons from one address
correlation:
  type: event_count
  rules: [2d16e000-0000-4000-8000-000000000001]
  group-by: [IpAddress]
  timespan: 1h
  condition: {gte: 2}
generate: true
`;

const compiled = (): CompiledSigma => compiledRules(RULES);

after(async () => {
  for (const p of jobPools) await p.close();
});

const stories = () => [...intrusionStory(), ...noisyStory()];
const insights = (pooled: boolean) => pooledJobInsights(compiled(), pooled, stories());

test('a job whose workers send digests reports the insights of the same job decoded inline', async () => {
  const inline = await insights(false);
  const pooled = await insights(true);
  assert.deepEqual(pooled, inline);
  const overview = JSON.stringify(inline);
  // The story's duplicate file counts once, and the rules and the correlation matched.
  assert.match(overview, /20 duplicates skipped/);
  assert.match(overview, /Service installed/);
  assert.match(overview, /Failed logons from one address/);
});

test('the workers send each event as its digest and row, and whole only when it matched a rule', async () => {
  const story = intrusionStory()[0]!.bytes;
  const staged = pipelineStage(compiled(), { messages: true }, true);
  assert.deepEqual(staged?.stage.digest, true);
  const pool = pipelinePool(1);
  jobPools.push(pool);
  const digester = new Digester(eventDescriber());
  const expected = [];
  for await (const c of parseEvtx(story, { threads: 0 }).chunks())
    for (const r of c.records) if (r.event !== undefined) expected.push(digester.digest(r.event));
  let at = 0;
  let whole = 0;
  for await (const chunk of parseEvtxStaged(story, { pool }, staged!.stage).chunks()) {
    const c = chunk as StagedChunk;
    assert.ok(c.digests !== undefined && c.rows !== undefined && c.sigma !== undefined);
    assert.equal(c.digests.length, c.records.length);
    for (let i = 0; i < c.records.length; i++) {
      assert.deepEqual(c.digests[i], expected[at++]);
      const matched: boolean = c.sigma[i] !== null;
      assert.equal(c.records[i]!.event !== undefined, matched, `record ${c.records[i]!.recordId}`);
      if (matched) whole++;
    }
  }
  assert.equal(at, expected.length);
  assert.ok(whole > 0 && whole < expected.length, `${whole} of ${expected.length} events sent whole`);
});
