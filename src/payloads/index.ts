/**
 * Payloads: the code events carry (PowerShell script blocks, encoded commands, FromBase64String
 * stages, service image paths, scheduled task XML, WMI consumers, Defender detections),
 * reassembled and decoded within documented bounds. Pure: events in, payloads out; the scan
 * queue hands them to a scan function the caller supplies (YARA-X on its workers).
 */

export {
  createPayloadExtractor,
  extractPayloads,
  type PayloadExtractor,
  type PayloadExtractorOptions,
} from './extractor.js';
export { CANDIDATE_FINDERS, type Candidate, type CandidateFinder } from './finders.js';
export { PAYLOAD_LIMITS, type PayloadLimits } from './limits.js';
export {
  type DistinctPayload,
  PAYLOAD_SET_LIMITS,
  PayloadSet,
  type PayloadSetLimits,
  payloadBytes,
} from './payload-set.js';
export {
  createPayloadScanQueue,
  type PayloadMatch,
  type PayloadScanOutcome,
  type PayloadScanQueue,
  type PayloadScanQueueOptions,
  type PayloadScanRule,
  type PayloadScanSummary,
} from './scan-queue.js';
export { FIELD_SOURCES, type FieldSource, SCRIPT_BLOCK_SOURCE } from './sources.js';
export {
  type DecodeLayer,
  PAYLOAD_KINDS,
  type Payload,
  type PayloadContent,
  type PayloadDiagnostic,
  type PayloadDiagnosticCode,
  type PayloadKind,
  type PayloadProvenance,
  type PayloadRecord,
} from './types.js';
