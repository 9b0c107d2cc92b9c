/** The I/O rim of EVTX decoding: reading sources chunk by chunk and the worker pool. */
export {
  type ChunkWalk,
  type EvtxReader,
  type EvtxSource,
  isEvtxReader,
  type RawChunk,
  walkChunks,
} from './chunks.js';
export { default as decodeWorker, mapSpan, type SpanResult, type SpanTask } from './decode-worker.js';
export {
  defaultThreads,
  EvtxParse,
  type ParseEvtxOptions,
  type ParseStats,
  parseEvtx,
  parseEvtxReader,
  parseEvtxStaged,
} from './parse-evtx.js';
export { DECODE_WORKER_YOUNG_MB, DecodePool, orderedDecode } from './pool.js';
export { checkSourceFile, checkSourceFileSync, unreadableSource } from './source-file.js';
