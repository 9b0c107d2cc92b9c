/**
 * `sigmaHits` from the root: per-event Sigma results over an EVTX file, typed, with the rule's id,
 * title and level, both record ids and the evidence (issue 48).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { isTaeError, loadRules, type SigmaHit, sigmaHits } from '../src/index.js';
import { smallLogEvents } from './helpers/small-log.js';

const RULE = `title: Failed logon from the network
id: 5b7c0ad4-6f51-4cb1-9a55-2f0b8d3f7a11
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625, LogonType: 3}
  condition: selection
`;
const rules = loadRules(RULE, 'failed-logon.yml');

/** The small log with its records' header numbers moved to 901, 902… apart from their EventRecordIDs. */
function renumberedLog(): Uint8Array {
  const bytes = writeEvtx(smallLogEvents());
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  // Records follow the file header (4 KiB) and the chunk header (512 bytes): magic, size, number.
  for (let off = 4608, n = 901; view.getUint32(off, true) === 0x00002a2a; n++) {
    view.setBigUint64(off + 8, BigInt(n), true);
    off += view.getUint32(off + 4, true);
  }
  return bytes;
}

async function all(hits: AsyncIterable<SigmaHit>): Promise<SigmaHit[]> {
  const out: SigmaHit[] = [];
  for await (const h of hits) out.push(h);
  return out;
}

test("each matching event is one hit with the rule's id, title, level, both record ids and the evidence", async () => {
  const hits = await all(sigmaHits(renumberedLog(), { sigma: rules }));
  assert.deepEqual(
    hits.map((h) => [h.ruleId, h.title, h.level, h.recordId, h.recordNumber, h.event.eventId]),
    [1, 2, 3, 4].map((i) => [
      '5b7c0ad4-6f51-4cb1-9a55-2f0b8d3f7a11',
      'Failed logon from the network',
      'medium',
      i,
      900 + i,
      4625,
    ]),
  );
  const matched = hits[0]!.evidence.filter((f) => f.matched).map((f) => [f.name, f.value]);
  assert.deepEqual(matched, [['LogonType', '3']]); // EventID selects the event; it is not evidence
  assert.ok(hits[0]!.evidence.some((f) => f.name === 'TargetUserName' && f.value === 'administrator'));
});

test('a compiled rule set and worker threads give the same hits; the builtin pack is named community', async () => {
  const bytes = writeEvtx(smallLogEvents());
  const inline = await all(sigmaHits(bytes, { sigma: rules }));
  const pooled = await all(sigmaHits(bytes, { sigma: rules, threads: 1 }));
  assert.deepEqual(pooled, inline);
  const community = await all(sigmaHits(bytes, { sigma: 'community' }));
  assert.ok(community.length > 0, 'the builtin pack matches the small log');
  assert.ok(community.every((h) => typeof h.ruleId === 'string' && h.title !== '' && h.evidence.length > 0));
});

test('options are checked at the call: an unknown key, missing or wrong rules', () => {
  const bytes = writeEvtx(smallLogEvents());
  const coded = (message: RegExp) => (e: unknown) =>
    isTaeError(e) && e.code === 'INVALID_ARGUMENT' && message.test(e.message);
  assert.throws(
    () => sigmaHits(bytes, { sigma: rules, thread: 2 } as never),
    coded(/did you mean 'threads'/),
  );
  assert.throws(() => sigmaHits(bytes, {} as never), coded(/options\.sigma/));
  assert.throws(() => sigmaHits(bytes, { sigma: 42 } as never), coded(/options\.sigma/));
  assert.throws(() => sigmaHits(bytes, { sigma: rules, threads: -1 }), coded(/options\.threads/));
});

test('bytes that are not EVTX reject on iteration with NOT_EVTX', async () => {
  await assert.rejects(
    all(sigmaHits(new TextEncoder().encode('not an event log'), { sigma: rules })),
    (e: unknown) => isTaeError(e) && e.code === 'NOT_EVTX',
  );
});
