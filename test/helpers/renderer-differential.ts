/**
 * The compiled renderers (compiled.ts, compiled-event.ts, write-value.ts, markers.ts) exist for
 * speed; the tree renderers are the reference. Each record of a chunk is rendered both ways:
 * crate-precision JSON, 100 ns JSON, XML and the flat event (its numbers too), and any
 * difference is kept. Shared by test/evtx-differential.test.ts (a fixed seed) and `npm run fuzz
 * -- --mode differential` (new seeds for a time budget).
 */
import { writeEvtxChunks } from '../../fixtures/evtx-writer/index.js';
import { variedEvents } from '../../fixtures/varied-events.js';
import { decodeChunk, recordNodes } from '../../src/evtx/chunk.js';
import { compiledJsonTo, compiledXmlTo } from '../../src/evtx/compiled.js';
import { compiledEvent } from '../../src/evtx/compiled-event.js';
import { toEvent } from '../../src/evtx/event.js';
import { FILE_HEADER_SIZE } from '../../src/evtx/file-header.js';
import { CHUNK_SIZE, type EvtxEvent, renderJson, renderXml, Sink } from '../../src/evtx/index.js';

export interface Tally {
  records: number;
  /** Records each fast path rendered (the others fell back to the tree). */
  compiled: { json: number; json100ns: number; xml: number; event: number };
  /** The first 20 differences. */
  mismatches: string[];
}

export const newTally = (): Tally => ({
  records: 0,
  compiled: { json: 0, json100ns: 0, xml: 0, event: 0 },
  mismatches: [],
});

const sink = new Sink();

/** The flat event as JSON, its numbers written so that NaN, -0 and Infinity stay apart. */
const eventJson = (e: EvtxEvent): string =>
  JSON.stringify(e, (_k, v: unknown) => (typeof v === 'number' ? `n:${Object.is(v, -0) ? '-0' : v}` : v));

function compiledText(write: (s: Sink) => boolean): string | null {
  sink.pos = 0;
  return write(sink) ? sink.toString(0) : null;
}

/** Renders every record of chunk `bytes` both ways into `t`; `where` names it in a mismatch. */
export function compareChunk(bytes: Uint8Array, chunkIndex: number, where: string, t: Tally): void {
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

/**
 * Events `from` to `to` (exclusive) of `variedEvents(seed)`, written by the fixture writer and
 * compared chunk by chunk (the events before `from` are generated and dropped, so that several
 * threads can share one stream).
 */
export function compareGenerated(seed: number, from: number, to: number, t: Tally = newTally()): Tally {
  const events = variedEvents(seed);
  for (let i = 0; i < from; i++) events.next();
  const limited = (function* () {
    for (let i = from; i < to; i++) yield events.next().value;
  })();
  let chunkIndex = 0;
  for (const chunk of writeEvtxChunks(limited))
    compareChunk(chunk, chunkIndex++, `seed ${seed} from ${from}: generated chunk ${chunkIndex}`, t);
  return t;
}

/** Tallies of parts of one comparison, added up. */
export function addTallies(parts: readonly Tally[]): Tally {
  const t = newTally();
  for (const p of parts) {
    t.records += p.records;
    for (const k of Object.keys(t.compiled) as (keyof Tally['compiled'])[]) t.compiled[k] += p.compiled[k];
    t.mismatches.push(...p.mismatches);
  }
  t.mismatches.splice(20);
  return t;
}
