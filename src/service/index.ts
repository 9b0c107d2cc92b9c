/**
 * The service of the interface, in-process: `Engine` with one method per endpoint, its error
 * table, limits and the request/response types.
 */

export { ENC_KEY_FORMAT } from '../crypto/index.js';
/** The Error insight of a job that a full disk stopped (the CLI exits 7 on it). */
export { JOB_NO_SPACE_TEXT } from '../jobs/index.js';
/** Types the Engine's signatures use, made elsewhere (for embedders to name them). */
export type {
  AddPackOptions,
  PackDiagnostic,
  PackFormat,
  PackInfo,
  PackLimits,
  PackReport,
  RuleKind,
  RuleLibrary,
  RuleLibraryOptions,
  RuleLinesResult,
  RuleSummary,
} from '../rules/index.js';
export type { PlaceholderValues } from '../sigma/index.js';
export type { JobStatus, UploadData } from '../store/index.js';
export type { RuleLinesResponse, RuleNamesRequest } from './data-api.js';
export { ENDPOINTS, type Endpoint, type EndpointInfo } from './endpoints.js';
export { Engine, type EngineOptions, type EngineRecovery, type EngineRetention } from './engine.js';
export {
  ERROR_ROWS,
  type ErrorResponse,
  type ErrorRow,
  type ErrorRowId,
  type ErrorSlug,
  endpointError,
  errorResponse,
  isErrorRowId,
  KEY_ERROR_HEADER,
  type KeyProblem,
} from './error-table.js';
export {
  ANONYMOUS_PRIORITY,
  DEFAULT_LIMITS,
  type EngineLimits,
  SUBSCRIPTION_LEVELS,
  type SubscriptionLevel,
} from './limits.js';
export { DEFAULT_PUBLIC_TTL_MS, type RetentionPolicy, type RetentionSweep } from './retention.js';
export { issueToken, type TokenOptions } from './tokens-api.js';
export type {
  Auth,
  DeleteRequest,
  FileJobRequest,
  FileListResponse,
  FileListRow,
  IssuedToken,
  JobCreated,
  JobListResponse,
  JobListRow,
  JobRequest,
  JobStatusEvent,
  JobStatusResponse,
  MessageResponse,
  ParseJobRequest,
  UploadFile,
  UploadRequest,
  UploadResponse,
} from './types.js';
