/** Chunk bytes → the requested renderings of each record (the work a pool worker does). */
import { decodeChunk, type EvtxRecord, recordNodes } from './chunk.js';
import { compiledJsonTo, compiledXmlTo } from './compiled.js';
import { compiledEvent } from './compiled-event.js';
import type { Diagnostic } from './diagnostics.js';
import { type EvtxEvent, eventText, finishEvent } from './event.js';
import { renderJson } from './render-json.js';
import { isXmlDocument, renderXml, xmlDocument } from './render-xml.js';
import { Sink } from './sink.js';
import type { XmlNode } from './tree.js';

export type RecordOutput = 'event' | 'json' | 'xml';

export interface ParsedRecord {
  /**
   * The record header's sequence number (1, 2, 3… in a fresh log), not the Windows
   * `EventRecordID`: that is `event.recordId`, the id other tools and Event Viewer show.
   */
  readonly recordNumber: number;
  readonly chunk: number;
  readonly offset: number;
  readonly event?: EvtxEvent;
  readonly json?: string;
  readonly xml?: string;
}

export interface DecodeTask {
  readonly chunkIndex: number;
  readonly fileOffset: number;
  readonly outputs: readonly RecordOutput[];
  readonly validateChecksums: boolean;
  readonly timePrecision: 'crate' | '100ns';
  /**
   * Deliver the JSON (one line per record) or XML renderings of the whole chunk as one
   * string in `DecodedChunk.text` instead of per record: far cheaper to pass between threads.
   */
  readonly batchText?: boolean;
}

export interface DecodedChunk {
  readonly chunkIndex: number;
  readonly records: ParsedRecord[];
  readonly diagnostics: Diagnostic[];
  /** Records decoded (equals `records.length` unless `batchText` left `records` empty). */
  readonly recordCount: number;
  /**
   * With `batchText`: the chunk's renderings as UTF-8, each record's followed by a newline.
   * Bytes rather than a string so a worker can transfer them without a copy.
   */
  readonly text?: Uint8Array;
}

/**
 * Appends the chunk's JSON lines (JSON wins when both are asked for) or XML documents
 * without declarations to `out`; nothing when neither is asked for.
 */
function writeBatchText(
  out: Sink,
  records: readonly EvtxRecord[],
  outputs: readonly RecordOutput[],
  full: boolean,
): void {
  const json = outputs.includes('json');
  const xml = !json && outputs.includes('xml');
  const opts = { timePrecision: full ? '100ns' : 'crate' } as const;
  for (const r of records) {
    const inst = r.instance;
    if (json) {
      if (inst === null || !compiledJsonTo(out, inst, full)) out.text(renderJson(recordNodes(r), opts));
      out.byte(10);
    } else if (xml && (inst === null || !compiledXmlTo(out, inst))) {
      out.text(renderXml(recordNodes(r), { declaration: false }));
    }
  }
}

/** Shared by every call: decoding is synchronous, and a worker decodes one chunk at a time. */
const sink = new Sink();

/**
 * Decodes a chunk into the task's outputs. With `batchText` and a `textOut` sink, the text
 * is appended to that sink (the caller slices it out; `text` stays unset) instead of being
 * copied into a buffer of its own.
 */
export function decodeChunkTo(bytes: Uint8Array, task: DecodeTask, textOut?: Sink): DecodedChunk {
  const { records, diagnostics } = decodeChunk(bytes, task);
  if (task.batchText === true) {
    const full = task.timePrecision === '100ns';
    const base = { chunkIndex: task.chunkIndex, records: [], recordCount: records.length, diagnostics };
    if (textOut !== undefined) {
      writeBatchText(textOut, records, task.outputs, full);
      return base;
    }
    sink.pos = 0;
    writeBatchText(sink, records, task.outputs, full);
    return { ...base, text: sink.take() };
  }
  const wantEvent = task.outputs.includes('event');
  const wantJson = task.outputs.includes('json');
  const wantXml = task.outputs.includes('xml');
  const full = task.timePrecision === '100ns';
  const opts = { timePrecision: task.timePrecision };
  const out: ParsedRecord[] = new Array(records.length);
  sink.pos = 0;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const inst = r.instance;
    let nodes: XmlNode[] | null = null;
    const tree = (): XmlNode[] => {
      nodes ??= recordNodes(r);
      return nodes;
    };
    const rec: { -readonly [K in keyof ParsedRecord]: ParsedRecord[K] } = {
      recordNumber: r.recordId,
      chunk: r.chunk,
      offset: r.offset,
    };
    if (wantEvent) {
      const e = inst === null ? null : compiledEvent(inst, r.recordId);
      rec.event = e ?? finishEvent(eventText(tree()), r.recordId);
    }
    if (wantJson) {
      const start = sink.pos;
      if (inst === null || !compiledJsonTo(sink, inst, full)) sink.text(renderJson(tree(), opts));
      rec.json = sink.toString(start);
      sink.pos = start;
    }
    if (wantXml) {
      const start = sink.pos;
      if (inst === null || !compiledXmlTo(sink, inst)) sink.text(renderXml(tree(), { declaration: false }));
      // A template whose definition is one element renders one root; anything else is checked.
      const only = inst?.def.nodes.length === 1 && inst.def.nodes[0]!.kind === 'element';
      rec.xml = xmlDocument(sink.toString(start), only || isXmlDocument(tree()));
      sink.pos = start;
    }
    out[i] = rec;
  }
  return { chunkIndex: task.chunkIndex, records: out, recordCount: out.length, diagnostics };
}
