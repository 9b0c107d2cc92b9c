/**
 * A job's files as pipeline inputs: read in place, or a private one decrypted segment by
 * segment as the decoder reads it (never whole in memory). A file that cannot be read becomes
 * an Error insight `<name>: <reason>` beside the results.
 */
import { errorInsight, type Insight } from '../insights/index.js';
import type { DecodePool } from '../parse/index.js';
import type { DecodeFilesResult, PipelineFile } from '../pipeline/index.js';
import type { RunContext } from './types.js';

export interface DecodeOptions {
  /** The engine's shared decode pool (a pipeline pool), created on first use. */
  readonly pool?: () => DecodePool;
  /** Files below this size decode inline (default 8 MiB: below it threads cost more than they save). */
  readonly inlineBelowBytes?: number;
}

export const jobFiles = (ctx: RunContext, fileIds: readonly string[]): PipelineFile[] =>
  fileIds.map((id) => ({
    name: id,
    open: async () => {
      const file = await ctx.readFile(id, { stream: true });
      return { source: file.source, size: file.size, name: file.name };
    },
  }));

/** The driver's options for a job: its pool and signal. */
export const jobDecoding = (ctx: RunContext, options: DecodeOptions) => ({
  signal: ctx.signal,
  ...(options.pool ? { pool: options.pool } : {}),
  ...(options.inlineBelowBytes === undefined ? {} : { inlineBelowBytes: options.inlineBelowBytes }),
});

export const failureInsights = (result: DecodeFilesResult): Insight[] =>
  result.failures.map((f) => errorInsight(`${f.file}: ${f.error.message}`));
