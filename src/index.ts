/** threat-analysis-engine: offline analysis of Windows event logs. */
export { type ErrorCode, isTaeError, TaeError } from './errors/index.js';
export {
  type Diagnostic,
  type DiagnosticCode,
  type EventFieldValue,
  type EvtxEvent,
  type EvtxFileHeader,
  type ParsedRecord,
  type RecordOutput,
  renderJson,
  renderXml,
  type XmlElement,
  type XmlNode,
} from './evtx/index.js';
export {
  DecodePool,
  defaultThreads,
  EvtxParse,
  type EvtxSource,
  type ParseEvtxOptions,
  type ParseStats,
  parseEvtx,
} from './parse/index.js';
