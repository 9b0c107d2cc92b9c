/** Chunk bytes → the requested renderings of each record (the work a pool worker does). */
import { decodeChunk, recordNodes } from './chunk.js';
import { compiledEventText, compiledJson, compiledXml } from './compiled.js';
import type { Diagnostic } from './diagnostics.js';
import { type EvtxEvent, eventText, finishEvent } from './event.js';
import { renderJson } from './render-json.js';
import { renderXml } from './render-xml.js';
import type { XmlNode } from './tree.js';

export type RecordOutput = 'event' | 'json' | 'xml';

export interface ParsedRecord {
  /** Record id from the record header. */
  readonly recordId: number;
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
}

export interface DecodedChunk {
  readonly chunkIndex: number;
  readonly records: ParsedRecord[];
  readonly diagnostics: Diagnostic[];
}

export function decodeChunkTo(bytes: Uint8Array, task: DecodeTask): DecodedChunk {
  const { records, diagnostics } = decodeChunk(bytes, task);
  const wantEvent = task.outputs.includes('event');
  const wantJson = task.outputs.includes('json');
  const wantXml = task.outputs.includes('xml');
  const out: ParsedRecord[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const inst = r.instance;
    let nodes: XmlNode[] | null = null;
    const tree = (): XmlNode[] => {
      nodes ??= recordNodes(r);
      return nodes;
    };
    const rec: { -readonly [K in keyof ParsedRecord]: ParsedRecord[K] } = {
      recordId: r.recordId,
      chunk: r.chunk,
      offset: r.offset,
    };
    if (wantEvent) {
      const t = inst === null ? null : compiledEventText(inst);
      rec.event = finishEvent(t ?? eventText(tree()), r.recordId);
    }
    if (wantJson) {
      const opts = { timePrecision: task.timePrecision };
      rec.json = (inst === null ? null : compiledJson(inst, opts)) ?? renderJson(tree(), opts);
    }
    if (wantXml) rec.xml = (inst === null ? null : compiledXml(inst)) ?? renderXml(tree());
    out[i] = rec;
  }
  return { chunkIndex: task.chunkIndex, records: out, diagnostics };
}
