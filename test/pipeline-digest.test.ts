/**
 * Digests (src/analysis/digest.ts) made in the decode workers: a parse job whose workers send
 * each event's digest instead of the event reports exactly what the same job decoding inline
 * reports, and the workers send on only the events that matched a rule, beside their rows.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { intrusionStory, noisyStory } from '../fixtures/stories/index.js';
import { Digester, digestAt, digestCount } from '../src/analysis/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtx, parseEvtxStaged } from '../src/parse/index.js';
import { DIGEST_SPAN_CHUNKS, pipelinePool, pipelineStage, type StagedChunk } from '../src/pipeline/index.js';
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
  const staged = pipelineStage(compiled(), { messages: true }, { digest: true });
  assert.deepEqual(staged?.stage.digest, true);
  const pool = pipelinePool(1);
  jobPools.push(pool);
  const digester = new Digester(eventDescriber());
  const expected = [];
  const events = [];
  for await (const c of parseEvtx(story, { threads: 0 }).chunks())
    for (const r of c.records)
      if (r.event !== undefined) {
        expected.push(digester.digest(r.event));
        events.push(r.event);
      }
  let at = 0;
  let whole = 0;
  for await (const chunk of parseEvtxStaged(story, { pool }, staged!.stage).chunks()) {
    const c = chunk as StagedChunk;
    assert.ok(c.digests !== undefined && c.rows !== undefined && c.sigma !== undefined);
    assert.ok(c.matchedEvents !== undefined);
    // No record travels: each has its digest, and only the matched ones their event.
    assert.equal(c.records.length, 0);
    assert.equal(digestCount(c.digests), c.recordCount);
    let sent = 0;
    for (let i = 0; i < c.recordCount; i++) {
      assert.deepEqual(digestAt(c.digests, i), expected[at]);
      if (c.sigma[i] !== null) {
        assert.deepEqual(c.matchedEvents[sent++], events[at], `record ${events[at]!.recordId}`);
        whole++;
      }
      at++;
    }
    assert.equal(sent, c.matchedEvents.length);
  }
  assert.equal(at, expected.length);
  assert.ok(whole > 0 && whole < expected.length, `${whole} of ${expected.length} events sent whole`);
});

test('a stage for correlations sends whole only the events of rules a correlation references', async () => {
  const story = intrusionStory()[0]!.bytes;
  const rules = compiled();
  const staged = pipelineStage(rules, { messages: true }, { digest: true, correlatedEventsOnly: true })!;
  const failed = rules.loaded.rules.findIndex((r) => r.title === 'Failed logon');
  assert.deepEqual(staged.stage.eventRules, [failed]);
  const pool = pipelinePool(1);
  jobPools.push(pool);
  const sent: number[] = [];
  const without: string[] = [];
  for await (const chunk of parseEvtxStaged(story, { pool }, staged.stage).chunks()) {
    const c = chunk as StagedChunk;
    assert.ok(c.matchedAt !== undefined && c.matchedEvents !== undefined && c.sigma !== undefined);
    assert.equal(c.matchedAt.length, c.matchedEvents.length);
    c.matchedAt.forEach((i, k) => {
      assert.ok(c.sigma![i]!.includes(failed));
      sent.push(c.matchedEvents![k]!.eventId);
    });
    c.sigma.forEach((hit, i) => {
      if (hit !== null && !c.matchedAt!.includes(i))
        without.push(...hit.map((r) => rules.loaded.rules[r]!.title));
    });
  }
  assert.ok(sent.length > 0 && sent.every((id) => id === 4625), `${sent}`);
  assert.ok(without.includes('Service installed'), 'the service installs matched and stayed in the worker');
});

test('a digested span comes back with its input buffer for the next span, and its rows in buffers of their own', async () => {
  const story = intrusionStory()[0]!.bytes;
  const staged = pipelineStage(compiled(), { messages: true }, { digest: true })!;
  const pool = pipelinePool(1);
  jobPools.push(pool);
  const span = 2 * 65536;
  const input = new ArrayBuffer(span);
  const length = Math.min(span, story.length - 4096);
  new Uint8Array(input).set(story.subarray(4096, 4096 + length));
  const result = await pool.run({
    outputs: ['event'],
    validateChecksums: true,
    timePrecision: 'crate',
    bytes: input,
    byteLength: length,
    firstIndex: 0,
    fileOffset: 4096,
    stage: staged.stage,
  });
  assert.equal(input.byteLength, 0, 'the input was moved to the worker');
  assert.ok(result.bytes instanceof ArrayBuffer && result.bytes.byteLength === span, 'and handed back');
  const chunks = result.chunks as StagedChunk[];
  assert.ok(chunks.length > 0 && chunks.every((c) => c.digests !== undefined && c.rows !== undefined));
  for (const c of chunks) {
    // Each chunk's rows own their buffers (exactly their size), so they move on to the index writer whole.
    assert.equal(c.rows!.bytes.byteLength, c.rows!.bytes.buffer.byteLength);
    assert.equal(c.rows!.nums.byteLength, c.rows!.nums.buffer.byteLength);
    let digested = 0;
    for (let i = 0; i < digestCount(c.digests!); i++) if (digestAt(c.digests!, i) !== null) digested++;
    assert.equal(c.rows!.count, digested);
  }
});

test('a digesting stage sends spans of DIGEST_SPAN_CHUNKS chunks, and they come back as shorter spans do', async () => {
  assert.ok(DIGEST_SPAN_CHUNKS > 2);
  const staged = pipelineStage(compiled(), { messages: true }, { digest: true })!;
  assert.equal(staged.spanChunks, DIGEST_SPAN_CHUNKS);
  // Stages whose results are the records keep the records' span (parse-evtx.ts).
  assert.equal(pipelineStage(compiled(), { messages: true }, { digest: false })!.spanChunks, undefined);
  const file = noisyStory()[0]!.bytes;
  const chunksInFile = Math.ceil((file.length - 4096) / 65536);
  assert.ok(chunksInFile > 2, `${chunksInFile} chunks`);
  const pool = pipelinePool(1);
  jobPools.push(pool);
  const run = pool.run.bind(pool);
  const spans: number[] = [];
  pool.run = (task, signal) => {
    spans.push(Math.ceil(task.byteLength / 65536));
    return run(task, signal);
  };
  const sent = async (spanChunks: number | undefined) => {
    spans.length = 0;
    const digests = [];
    const matched = [];
    for await (const chunk of parseEvtxStaged(file, { pool }, staged.stage, spanChunks).chunks()) {
      const c = chunk as StagedChunk;
      for (let i = 0; i < digestCount(c.digests!); i++) digests.push(digestAt(c.digests!, i));
      matched.push(...c.matchedEvents!);
    }
    return { spans: [...spans], digests, matched };
  };
  const long = await sent(staged.spanChunks);
  const short = await sent(undefined);
  assert.deepEqual(long.spans, [Math.min(DIGEST_SPAN_CHUNKS, chunksInFile)]);
  assert.deepEqual(short.spans.slice(0, 2), [2, 2]);
  assert.ok(long.digests.length > 0);
  assert.deepEqual(long.digests, short.digests);
  assert.deepEqual(long.matched, short.matched);
});
