/**
 * `threat-analysis-engine/service`: the service interface in-process, `Engine.open()` with one
 * method per endpoint, its error table and request/response types.
 */
export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type Auth,
  DEFAULT_LIMITS,
  type DeleteRequest,
  ENDPOINTS,
  Engine,
  type EngineLimits,
  type EngineOptions,
  type EngineRecovery,
  ERROR_ROWS,
  type ErrorResponse,
  errorResponse,
  type FileJobRequest,
  type FileListResponse,
  type FileListRow,
  type IssuedToken,
  type JobCreated,
  type JobListResponse,
  type JobListRow,
  type JobRequest,
  type JobStatusEvent,
  type JobStatusResponse,
  type MessageResponse,
  type ParseJobRequest,
  SUBSCRIPTION_LEVELS,
  type SubscriptionLevel,
  type UploadFile,
  type UploadRequest,
  type UploadResponse,
} from '../service/index.js';
