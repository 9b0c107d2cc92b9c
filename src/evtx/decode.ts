/** Chunk bytes → the requested renderings of each record (the work a pool worker does). */
import { decodeChunk } from './chunk.js';
import type { Diagnostic } from './diagnostics.js';
import { type EvtxEvent, toEvent } from './event.js';
import { renderJson } from './render-json.js';
import { renderXml } from './render-xml.js';

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
    out[i] = {
      recordId: r.recordId,
      chunk: r.chunk,
      offset: r.offset,
      ...(wantEvent ? { event: toEvent(r.nodes, r.recordId) } : {}),
      ...(wantJson ? { json: renderJson(r.nodes, { timePrecision: task.timePrecision }) } : {}),
      ...(wantXml ? { xml: renderXml(r.nodes) } : {}),
    };
  }
  return { chunkIndex: task.chunkIndex, records: out, diagnostics };
}
