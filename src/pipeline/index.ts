/** The analysis pipeline's rim: decode workers that also match Sigma rules, and their events. */
export { forEachEvent, type PipelineStage, pipelinePool, type StagedChunk, sigmaStage } from './stage.js';
