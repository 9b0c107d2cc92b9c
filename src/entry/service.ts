/**
 * `threat-analysis-engine/service`: the service interface in-process, `Engine.open()` with one
 * method per endpoint, its error table and request/response types.
 *
 * @module threat-analysis-engine/service
 */
// First: refuses an unsupported Node.js before any other module is evaluated.
import '../runtime/index.js';

export { type ErrorCode, isTaeError, TaeError } from '../errors/index.js';
export {
  type Auth,
  DEFAULT_LIMITS,
  DEFAULT_PUBLIC_TTL_MS,
  type DeleteRequest,
  ENDPOINTS,
  Engine,
  type EngineLimits,
  type EngineOptions,
  type EngineRecovery,
  type EngineRetention,
  ERROR_ROWS,
  type ErrorResponse,
  errorResponse,
  type FileJobRequest,
  type FileListResponse,
  type FileListRow,
  type IssuedToken,
  issueToken,
  type JobCreated,
  type JobListResponse,
  type JobListRow,
  type JobRequest,
  type JobStatusEvent,
  type JobStatusResponse,
  KEY_ERROR_HEADER,
  type KeyProblem,
  type MessageResponse,
  type ParseJobRequest,
  type RetentionPolicy,
  type RetentionSweep,
  SUBSCRIPTION_LEVELS,
  type SubscriptionLevel,
  type TokenOptions,
  type UploadFile,
  type UploadRequest,
  type UploadResponse,
} from '../service/index.js';
