/**
 * The payload scan queue with the real YARA engine: payload bytes handed out and not yet
 * scanned stay under the cap (the caller is asked to wait past it), a payload seen again is
 * not scanned again but its records join the match, a scan that times out is counted, and a
 * scan that throws stops the queue without losing what was found.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { createPayloadScanQueue, type PayloadScanOutcome } from '../src/payloads/index.js';
import { type CompiledRuleSet, YaraEngine } from '../src/yara/index.js';
import { scriptBlockEvent } from './helpers/payload-log.js';

const engine = new YaraEngine({ threads: 2, scanTimeoutMs: 1_000 });
after(() => engine.close());

async function compiled(source: string): Promise<CompiledRuleSet> {
  const c = await engine.compile({ sources: source });
  assert.equal(c.kind, 'compiled');
  return (c as Extract<typeof c, { kind: 'compiled' }>).rules;
}

async function eventsOf(descriptions: Parameters<typeof writeEvtx>[0]): Promise<EvtxEvent[]> {
  const out: EvtxEvent[] = [];
  for await (const r of parseEvtx(writeEvtx(descriptions))) if (r.event) out.push(r.event);
  return out;
}

/** 40 script blocks of ~20 KB, each distinct, then the first 5 again (new records, same text). */
async function blocks(): Promise<EvtxEvent[]> {
  const text = (i: number) => `# block ${i} tae-queue-marker\r\n${'$x = 1; '.repeat(2500)}`;
  const list = Array.from({ length: 40 }, (_, i) => scriptBlockEvent(text(i), 1000 + i));
  const again = Array.from({ length: 5 }, (_, i) => scriptBlockEvent(text(i), 2000 + i));
  return eventsOf([...list, ...again]);
}

test('bytes in flight stay under the cap, repeats are scanned once and join the match', async () => {
  const rules = await compiled('rule marker { strings: $a = "tae-queue-marker" condition: $a }');
  let scanning = 0;
  let most = 0;
  const sizes: number[] = [];
  const batches: number[] = [];
  const queue = createPayloadScanQueue({
    scan: async (targets) => {
      const bytes = targets.reduce((n, t) => n + t.length, 0);
      scanning += bytes;
      most = Math.max(most, scanning);
      sizes.push(...targets.map((t) => t.length));
      batches.push(targets.length);
      try {
        return await engine.scanBatch({ rules, targets, timeoutMs: 1_000 });
      } finally {
        scanning -= bytes;
      }
    },
    concurrency: 2,
    batchCount: 8,
    maxBytesInFlight: 64 * 1024,
  });
  let waits = 0;
  for (const e of await blocks()) {
    const wait = queue.add(e, 'blocks.evtx');
    if (wait !== undefined) {
      waits++;
      await wait;
    }
  }
  const s = await queue.finish();
  assert.equal(s.scanned, 40);
  assert.equal(s.repeats, 5);
  assert.equal(sizes.length, 40);
  assert.ok(batches.length < 40 && Math.max(...batches) <= 8, `batches of ${batches.join(', ')}`);
  assert.ok(waits > 0, 'the caller was asked to wait');
  assert.ok(
    most <= 64 * 1024 + Math.max(...sizes),
    `at most the cap plus one payload in flight, saw ${most}`,
  );
  assert.equal(s.matches.length, 40);
  assert.deepEqual(
    s.matches.slice(0, 6).map((m) => [m.occurrences, m.records.map((r) => r.recordId)]),
    [
      [2, [1000, 2000]],
      [2, [1001, 2001]],
      [2, [1002, 2002]],
      [2, [1003, 2003]],
      [2, [1004, 2004]],
      [1, [1005]],
    ],
  );
  assert.equal(s.matches[0]!.preview.length, 300);
  assert.equal(s.error, undefined);
});

test('a scan that times out is counted and said; one that throws stops the queue and is kept as its error', async () => {
  const slow = await compiled(
    'rule forever { condition: for all i in (0..filesize - 1) : ( for all j in (0..filesize - 1) : ( uint8(j) == uint8(i) ) ) }',
  );
  const events = await eventsOf([
    scriptBlockEvent('a'.repeat(30_000), 1),
    scriptBlockEvent('a'.repeat(20), 2),
  ]);
  let batches = 0;
  const timed = createPayloadScanQueue({
    scan: (targets) => {
      batches++;
      return engine.scanBatch({ rules: slow, targets, timeoutMs: 1_000 });
    },
  });
  for (const e of events) await timed.add(e);
  const t = await timed.finish();
  assert.equal(batches, 1, 'both payloads went in one batch');
  assert.equal(t.timeouts, 1);
  assert.match(t.firstProblem!, /a script-block payload scan timed out after 1 s/);
  assert.deepEqual(
    t.matches.map((m) => [m.records[0]!.recordId, m.rules.map((r) => r.rule)]),
    [[2, ['forever']]],
    'the other payload of the batch was scanned to the end',
  );

  let calls = 0;
  const broken = createPayloadScanQueue({
    scan: async (): Promise<PayloadScanOutcome[]> => {
      calls++;
      throw new Error('no native binary');
    },
    concurrency: 1,
  });
  for (const e of await blocks()) await broken.add(e);
  const b = await broken.finish();
  assert.equal((b.error as Error).message, 'no native binary');
  assert.equal(calls, 1, 'nothing is scanned after the first throw');
  assert.equal(b.scanned, 0);
});
