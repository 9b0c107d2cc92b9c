/** The interface's limits and the subscription levels, in one frozen place. */

export interface EngineLimits {
  /** Ids per job-creation or delete request. */
  readonly maxIdsPerRequest: number;
  /** Total input of an EVTX parse job (1 GB = 2^30 bytes). */
  readonly parseTotalBytes: number;
  /** Total input of a Sigma file job. */
  readonly sigmaTotalBytes: number;
  /** Total input of a YARA file job (250 MB = 250 × 2^20 bytes). */
  readonly yaraTotalBytes: number;
  /** One uploaded file. */
  readonly uploadFileBytes: number;
  /** One upload call, all its files, from first byte to last. */
  readonly uploadTimeoutMs: number;
  /** Files per upload call (the spec sets none; ours). */
  readonly maxFilesPerUpload: number;
  /** Characters of an uploaded file's name (ours). */
  readonly maxFileNameLength: number;
  /** Decoded size of a custom rule on a file job (ours). */
  readonly maxRuleBytes: number;
}

const GB = 1024 ** 3;
const MB = 1024 ** 2;

export const DEFAULT_LIMITS: EngineLimits = Object.freeze({
  maxIdsPerRequest: 100,
  parseTotalBytes: GB,
  sigmaTotalBytes: GB,
  yaraTotalBytes: 250 * MB,
  uploadFileBytes: 250 * MB,
  uploadTimeoutMs: 30_000,
  maxFilesPerUpload: 100,
  maxFileNameLength: 1024,
  maxRuleBytes: MB,
});

/**
 * Subscription levels and the queue priority each gives; callers without a token queue at 0.
 * The queue runs the highest priority first, oldest first within a priority.
 */
export const SUBSCRIPTION_LEVELS = Object.freeze({ free: 1, standard: 2, premium: 3 });
export type SubscriptionLevel = keyof typeof SUBSCRIPTION_LEVELS;
export const ANONYMOUS_PRIORITY = 0;

export const isSubscriptionLevel = (v: unknown): v is SubscriptionLevel =>
  typeof v === 'string' && Object.hasOwn(SUBSCRIPTION_LEVELS, v);
