/** Job types, their inputs, and the runner contract every job type implements. */
import type { Insight } from '../insights/index.js';
import type { ContentReader } from '../store/index.js';

/**
 * `winevtx`, `sigma_file_community` and `sigma_file_custom` are the spec's values; the YARA
 * ones (not shown in the spec) are ours, named the same way.
 */
export const JOB_TYPES = [
  'winevtx',
  'sigma_file_community',
  'sigma_file_custom',
  'yara_file_community',
  'yara_file_custom',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** The `category` of a job-creation response, per job type. */
export const JOB_CATEGORY: Readonly<Record<JobType, 'winevtx' | 'sigma' | 'Yara'>> = {
  winevtx: 'winevtx',
  sigma_file_community: 'sigma',
  sigma_file_custom: 'sigma',
  yara_file_community: 'Yara',
  yara_file_custom: 'Yara',
};

/** What a job was asked to do, validated at creation; custom rules are decoded text. */
export type JobInput =
  | {
      readonly type: 'winevtx';
      readonly file_ids: readonly string[];
      readonly run_sigma_rules: boolean;
      /** Present only when asked for, so older inputs and the spec's requests are unchanged. */
      readonly run_yara_payloads?: true;
    }
  | { readonly type: 'sigma_file_community'; readonly file_ids: readonly string[] }
  | { readonly type: 'sigma_file_custom'; readonly file_ids: readonly string[]; readonly rule: string }
  | { readonly type: 'yara_file_community'; readonly file_ids: readonly string[] }
  | { readonly type: 'yara_file_custom'; readonly file_ids: readonly string[]; readonly rule: string };

/** A job's input file, readable without plaintext ever touching disk. */
export interface JobFile {
  readonly id: string;
  readonly name: string;
  readonly size: number;
  readonly encrypted: boolean;
  /**
   * A path for an unencrypted file on disk (read it in place), else the bytes in memory, or
   * with `stream` a reader (a private file decrypted segment by segment as it is read).
   */
  readonly source: string | Uint8Array | ContentReader;
}

export interface RunContext {
  readonly jobId: string;
  /** A fresh copy of a private job's key, which the caller wipes; null for a public job. */
  jobKey(): Buffer | null;
  /** Aborted when the job is cancelled or deleted, or the engine closes. */
  readonly signal: AbortSignal;
  /**
   * Opens one of the job's files: whole in memory (a private one decrypted), or with `stream`
   * as a path or a reader the caller closes, so memory does not grow with the file.
   */
  readFile(fileId: string, options?: { readonly stream?: boolean }): Promise<JobFile>;
}

/**
 * Does one job's work. Returns its insights: a job whose insights are all Error insights is
 * Failed, otherwise Completed. A thrown error fails the job with one Error insight (a TaeError's
 * message as is; anything else as an internal error with an error id).
 */
export type JobRunner<T extends JobType = JobType> = (
  input: Extract<JobInput, { type: T }>,
  ctx: RunContext,
) => Promise<readonly Insight[]>;

export type JobRunners = { readonly [T in JobType]: JobRunner<T> };
