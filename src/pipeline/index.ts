/**
 * The analysis pipeline's rim: EVTX files → events for every entry point, on decode workers
 * that also match Sigma rules.
 */
export {
  type DecodeFilesOptions,
  type DecodeFilesResult,
  decodeFiles,
  type FileInProgress,
  type FilesVisitor,
  INLINE_BELOW_BYTES,
  type PipelineFile,
  pathFiles,
} from './files.js';
export {
  DIGEST_SPAN_CHUNKS,
  forEachEvent,
  type LazyPool,
  lazyPool,
  type PipelineStage,
  pipelinePool,
  pipelineStage,
  type RowsStage,
  type StagedChunk,
} from './stage.js';
