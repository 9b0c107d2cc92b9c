/**
 * Background jobs: the priority queue and its scheduler, the runner contract and registry
 * entries (the `winevtx` summary runner, which also fills the job's event index), and how
 * private job data is sealed.
 */
export { decodeInput, decodeResult } from './codec.js';
export { proposeJobName } from './names.js';
export {
  JOB_NO_SPACE_TEXT,
  type JobStatusEvent,
  Scheduler,
  type SchedulerOptions,
  type SubmitJob,
} from './scheduler.js';
export { createSigmaFileRunner, type SigmaFileRunnerOptions } from './sigma-file.js';
export {
  JOB_CATEGORY,
  JOB_TYPES,
  type JobFile,
  type JobInput,
  type JobRunner,
  type JobRunners,
  type JobType,
  type RunContext,
} from './types.js';
export {
  createWinevtxRunner,
  type JobEventIndex,
  type JobEventIndexOptions,
  type WinevtxRunnerOptions,
} from './winevtx.js';
export { createYaraFileRunner, type YaraFileRunnerOptions } from './yara-file.js';
