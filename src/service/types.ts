/**
 * Requests and responses of the Engine methods, shaped exactly as the interface's bodies
 * (snake_case fields, arrays of strings for list rows). Every method also takes the two
 * headers as `Auth`.
 */
import type { Insight } from '../insights/index.js';
import type { JobStatusEvent } from '../jobs/index.js';
import type { JobStatus, UploadData } from '../store/index.js';
import type { SubscriptionLevel } from './limits.js';

/** `X-Service-Api-Token` and `X-Service-Api-Enc-Key`; an empty string counts as absent. */
export interface Auth {
  readonly token?: string | undefined;
  readonly encKey?: string | undefined;
}

export interface UploadFile {
  /** The original file name (multipart `filename`). */
  readonly name: string;
  /** The whole content, or a stream of it (read once, never written to disk in plaintext). */
  readonly data: UploadData;
}

export interface UploadRequest {
  /**
   * The files, or a stream of them (e.g. multipart parts as they arrive: each file's data is
   * read before the next file is asked for). The upload clock covers the whole stream.
   */
  readonly files: readonly UploadFile[] | AsyncIterable<UploadFile>;
}

export interface UploadResponse {
  /** `[file_id, file name]` pairs, in upload order. */
  readonly file_ids: [string, string][];
  readonly message: string;
}

export interface ParseJobRequest {
  readonly file_ids: readonly string[];
  readonly run_sigma_rules: boolean;
  /**
   * Not in the spec: also scan the payloads events carry (script blocks, decoded commands,
   * service images…) with the community YARA rules (default false).
   */
  readonly run_yara_payloads?: boolean;
}

export interface FileJobRequest {
  readonly file_ids: readonly string[];
  readonly operation: 'run_rule' | 'run_community_rules';
  /** Base64 rule text; required for `run_rule`. */
  readonly rule?: string;
}

export interface JobCreated {
  readonly id: string;
  readonly job_name: string;
  readonly message: string;
  readonly category: 'winevtx' | 'sigma' | 'Yara';
}

export interface JobRequest {
  readonly job_id: string;
}

export interface JobStatusResponse {
  readonly id: string;
  readonly job_name: string;
  readonly status: JobStatus;
  /** Present when Completed (and when Failed, holding its Error insights). */
  readonly insights?: Insight[];
}

/** job_id, job_name, status, creation_date, visibility, job_type. */
export type JobListRow = [string, string, string, string, string, string];
export interface JobListResponse {
  readonly jobs: JobListRow[];
}

/** file_id, file_name, creation_date, visibility, encryption_status. */
export type FileListRow = [string, string, string, string, string];
export interface FileListResponse {
  readonly files: FileListRow[];
}

export interface DeleteRequest {
  readonly ids: readonly string[];
}

export interface MessageResponse {
  readonly message: string;
}

export interface IssuedToken {
  readonly token: string;
  readonly level: SubscriptionLevel;
}

export type { JobStatusEvent };
