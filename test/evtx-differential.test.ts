/**
 * The compiled renderers (compiled.ts, compiled-event.ts, write-value.ts, markers.ts) exist for
 * speed; the tree renderers are the reference. For every record of writer-generated logs (every
 * value type, hostile text, every body layout) and of the corpus when present, both must give
 * the same bytes: crate-precision JSON, 100 ns JSON, XML and the flat event (its numbers too).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { writeEvtxChunks } from '../fixtures/evtx-writer/index.js';
import { variedEvents } from '../fixtures/varied-events.js';
import { decodeChunk, recordNodes } from '../src/evtx/chunk.js';
import { compiledJsonTo, compiledXmlTo } from '../src/evtx/compiled.js';
import { compiledEvent } from '../src/evtx/compiled-event.js';
import { toEvent } from '../src/evtx/event.js';
import { FILE_HEADER_SIZE } from '../src/evtx/file-header.js';
import { CHUNK_SIZE, type EvtxEvent, renderJson, renderXml, Sink } from '../src/evtx/index.js';
import { corpusIndex, SKIP_NO_CORPUS } from './helpers/corpus.js';

interface Tally {
  records: number;
  compiled: { json: number; json100ns: number; xml: number; event: number };
  mismatches: string[];
}

const sink = new Sink();

/** The flat event as JSON, its numbers written so that NaN, -0 and Infinity stay apart. */
const eventJson = (e: EvtxEvent): string =>
  JSON.stringify(e, (_k, v: unknown) => (typeof v === 'number' ? `n:${Object.is(v, -0) ? '-0' : v}` : v));

function compiledText(write: (s: Sink) => boolean): string | null {
  sink.pos = 0;
  return write(sink) ? sink.toString(0) : null;
}

function compareChunk(bytes: Uint8Array, chunkIndex: number, where: string, t: Tally): void {
  const { records } = decodeChunk(bytes, {
    chunkIndex,
    fileOffset: FILE_HEADER_SIZE + chunkIndex * CHUNK_SIZE,
  });
  for (const r of records) {
    t.records++;
    const inst = r.instance;
    if (inst === null) continue;
    const nodes = recordNodes(r);
    const differs = (what: string, compiled: string, tree: string) => {
      if (compiled !== tree && t.mismatches.length < 20)
        t.mismatches.push(
          `${where} record ${r.recordId} ${what}:\n  compiled ${compiled}\n  tree     ${tree}`,
        );
    };
    const json = compiledText((s) => compiledJsonTo(s, inst, false));
    if (json !== null) {
      t.compiled.json++;
      differs('json', json, renderJson(nodes, { timePrecision: 'crate' }));
    }
    const json100 = compiledText((s) => compiledJsonTo(s, inst, true));
    if (json100 !== null) {
      t.compiled.json100ns++;
      differs('json 100ns', json100, renderJson(nodes, { timePrecision: '100ns' }));
    }
    const xml = compiledText((s) => compiledXmlTo(s, inst));
    if (xml !== null) {
      t.compiled.xml++;
      differs('xml', xml, renderXml(nodes, { declaration: false }));
    }
    const event = compiledEvent(inst, r.recordId);
    if (event !== null) {
      t.compiled.event++;
      differs('event', eventJson(event), eventJson(toEvent(nodes, r.recordId)));
    }
  }
}

const newTally = (): Tally => ({
  records: 0,
  compiled: { json: 0, json100ns: 0, xml: 0, event: 0 },
  mismatches: [],
});

test('compiled and tree renderers agree byte for byte on 100,000 generated records of every value type', () => {
  const t = newTally();
  const events = variedEvents(20261125);
  const limited = (function* () {
    for (let i = 0; i < 100_000; i++) yield events.next().value;
  })();
  let chunkIndex = 0;
  for (const chunk of writeEvtxChunks(limited))
    compareChunk(chunk, chunkIndex++, `generated chunk ${chunkIndex}`, t);
  assert.deepEqual(t.mismatches, []);
  assert.equal(t.records, 100_000);
  // The comparison means something only where the fast paths ran. Text runs compiled nearly
  // everywhere; the flat event falls back to the tree for shapes it does not compile (79,551
  // of these 100,000 records compile), so its floor is lower.
  const floors = { json: 0.95, json100ns: 0.95, xml: 0.95, event: 0.75 };
  for (const [what, n] of Object.entries(t.compiled))
    assert.ok(
      n >= floors[what as keyof typeof floors] * t.records,
      `${what}: compiled for ${n} of ${t.records}`,
    );
});

test('compiled and tree renderers agree byte for byte on every corpus record', {
  skip: SKIP_NO_CORPUS,
}, () => {
  const t = newTally();
  for (const f of corpusIndex()) {
    const bytes = readFileSync(f.path);
    for (let i = 0, at = FILE_HEADER_SIZE; at + CHUNK_SIZE <= bytes.length; i++, at += CHUNK_SIZE)
      compareChunk(bytes.subarray(at, at + CHUNK_SIZE), i, f.rel, t);
  }
  assert.deepEqual(t.mismatches, []);
  assert.ok(t.compiled.json >= 0.9 * t.records, `json compiled for ${t.compiled.json} of ${t.records}`);
});
