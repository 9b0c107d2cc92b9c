/**
 * EVTX decoding, pure: bytes in, records and diagnostics out. Layers follow the evtx
 * crate: file header → chunk (string and template caches) → record → BinXML tokens →
 * template expansion → one tree → renderers (crate-shaped JSON, XML, flat events).
 */

export { type ChunkResult, decodeChunk, type EvtxRecord, isChunkMagic } from './chunk.js';
export { CHUNK_SIZE } from './chunk-context.js';
export {
  type DecodedChunk,
  type DecodeTask,
  decodeChunkTo,
  type ParsedRecord,
  type RecordOutput,
} from './decode.js';
export type { Diagnostic, DiagnosticCode } from './diagnostics.js';
export { type EventFieldValue, type EvtxEvent, toEvent } from './event.js';
export { type EvtxFileHeader, FILE_HEADER_SIZE, noChunksDiagnostic, parseFileHeader } from './file-header.js';
export { type JsonRenderOptions, renderJson } from './render-json.js';
export { renderXml } from './render-xml.js';
export { Sink } from './sink.js';
export { filetimeParts, type WindowsTime } from './time.js';
export type { XmlAttr, XmlElement, XmlNode, XmlValue } from './tree.js';
