/**
 * The EVTX files of a job, decoded one after another: read in place, or a private one decrypted
 * segment by segment as the decoder reads it (never whole in memory),
 * decoded inline or in the shared pool by size, handed to the runner's visitor. A file that
 * cannot be read becomes an Error insight `<name>: <reason>` and the others go on; a cancelled
 * job stops at once.
 */
import { isTaeError, TaeError } from '../errors/index.js';
import { errorInsight, type Insight } from '../insights/index.js';
import { type DecodePool, type EvtxParse, parseEvtxStaged } from '../parse/index.js';
import type { JobFile, RunContext } from './types.js';

export interface DecodeOptions {
  /** The engine's shared decode pool, created on first use. */
  readonly pool?: () => DecodePool;
  /** Files below this size decode inline (default 8 MiB: below it threads cost more than they save). */
  readonly inlineBelowBytes?: number;
}

export interface JobFilesResult {
  /** Files decoded to the end. */
  readonly parsed: number;
  readonly errors: Insight[];
}

export async function forEachJobFile(
  fileIds: readonly string[],
  ctx: RunContext,
  options: DecodeOptions,
  visit: (file: JobFile, parse: EvtxParse) => Promise<void>,
  /** Work the pool's workers do per record (see the pipeline module); inline decoding skips it. */
  stage?: unknown,
): Promise<JobFilesResult> {
  const inlineBelow = options.inlineBelowBytes ?? 8 * 1024 * 1024;
  const errors: Insight[] = [];
  let parsed = 0;
  for (const id of fileIds) {
    let name = id;
    let file: JobFile | undefined;
    try {
      file = await ctx.readFile(id, { stream: true });
      name = file.name;
      const pooled = options.pool !== undefined && file.size >= inlineBelow;
      const parseOptions = {
        label: file.name,
        signal: ctx.signal,
        ...(pooled ? { pool: options.pool!() } : {}),
      };
      const parse = parseEvtxStaged(file.source, parseOptions, pooled ? stage : undefined);
      await visit(file, parse);
      parsed++;
    } catch (e) {
      if (ctx.signal.aborted) throw new TaeError('CANCELLED', 'job cancelled', { cause: e });
      if (!isTaeError(e)) throw e;
      errors.push(errorInsight(`${name}: ${e.message}`));
    } finally {
      // A parse closes its reader when it runs to the end or fails; one never started does not.
      const source = file?.source;
      if (source !== undefined && typeof source !== 'string' && !(source instanceof Uint8Array))
        await source.close().catch(() => {});
    }
  }
  return { parsed, errors };
}
