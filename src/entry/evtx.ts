/**
 * `threat-analysis-engine/evtx`: EVTX decoding alone, the lightest import (no SQLite, YARA,
 * HTTP or zip module is loaded).
 *
 * @module threat-analysis-engine/evtx
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export type {
  DecodedChunk,
  Diagnostic,
  DiagnosticCode,
  EventFieldValue,
  EvtxEvent,
  EvtxFileHeader,
  ParsedRecord,
  RecordOutput,
} from '../evtx/index.js';
export {
  DecodePool,
  defaultThreads,
  type EvtxParse,
  type EvtxSource,
  type ParseEvtxOptions,
  type ParseStats,
  parseEvtx,
} from '../parse/index.js';
