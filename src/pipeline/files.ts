/**
 * EVTX files → events: the one driver every entry point runs (parse job, Sigma file job,
 * `tae analyze`, `tae sigma`, the library's `buildIndex`). Each file is opened, decoded inline
 * when small (threads cost more than they save) or on the pool when large, its workers matching
 * Sigma rules where they decode; each event goes to the visitor with the file it came from. A
 * file that cannot be read is reported and the others go on; a cancelled run stops at once.
 */
import { statSync } from 'node:fs';
import type { EventDigest } from '../analysis/index.js';
import { isNoSpace, isTaeError, TaeError } from '../errors/index.js';
import type { EvtxEvent } from '../evtx/index.js';
import {
  type DecodePool,
  type EvtxParse,
  type EvtxReader,
  type EvtxSource,
  isEvtxReader,
  parseEvtxStaged,
} from '../parse/index.js';
import type { RowRef } from '../rows/index.js';
import type { CompiledSigma, SigmaRule } from '../sigma/index.js';
import { forEachEvent, pipelineStage, type RowsStage } from './stage.js';

/** One input: a name, and how to open it (its bytes and size). */
export interface PipelineFile {
  /** The name reported until the file is opened (an id, a path). */
  readonly name: string;
  /** The bytes: a path, a buffer or a reader (closed by the driver); `name` replaces the first. */
  open(): Promise<{
    readonly source: EvtxSource | EvtxReader;
    readonly size: number;
    readonly name?: string;
  }>;
}

/** The file an event came from, and its decoding so far. */
export interface FileInProgress {
  readonly name: string;
  /** Position in the run's inputs. */
  readonly index: number;
  readonly size: number;
  readonly parse: EvtxParse;
}

export interface FilesVisitor {
  /**
   * `matched`: every rule a worker matched, or undefined when the event was not matched there.
   * A promise returned asks the driver to wait for it before the next event (backpressure).
   */
  event(
    e: EvtxEvent,
    file: FileInProgress,
    matched: readonly SigmaRule[] | undefined,
    /** The event's index row, made by a worker when `rows` asked for it. */
    row?: RowRef,
  ): undefined | Promise<void>;
  /**
   * An event's digest (the analysis module's), made by a worker when `digest` asked for it; the
   * event itself comes only when it matched a rule.
   */
  digest?(
    d: EventDigest,
    event: EvtxEvent | undefined,
    file: FileInProgress,
    matched: readonly SigmaRule[],
    row?: RowRef,
  ): undefined | Promise<void>;
  /** Events a worker matched no rule on and did not send (`onlyMatched`): only counted. */
  skipped?(count: number, file: FileInProgress): void;
  /** The file was decoded to its end (its diagnostics are complete). */
  fileDone?(file: FileInProgress): void;
  /** Awaited after each chunk's events: a consumer that writes elsewhere paces decoding. */
  ready?(): Promise<void> | undefined;
}

export interface DecodeFilesOptions {
  /** The shared decode pool, asked for when a file is large enough; none: all inline. */
  readonly pool?: () => DecodePool;
  /** Files below this size decode inline (default 8 MiB). */
  readonly inlineBelowBytes?: number;
  readonly signal?: AbortSignal;
  /** Rules the pool's workers match (a pool from `pipelinePool`); the visitor matches the rest. */
  readonly sigma?: CompiledSigma;
  /** The pool's workers make each event's index row (events decoded inline come without). */
  readonly rows?: RowsStage;
  /**
   * The pool's workers make each event's digest, with the built-in messages, for the visitor's
   * `digest` (which must be there), and send on only the events that matched a rule.
   */
  readonly digest?: boolean;
  /**
   * The pool's workers send on only the events a rule matched (the visitor's `skipped` counts
   * the others): for a visitor that needs nothing of an unmatched event. Events decoded here,
   * or not matched in a worker, still all come to `event`.
   */
  readonly onlyMatched?: boolean;
  /**
   * With `digest`: the workers send on only the matched events whose rules a correlation
   * references (the visitor's `digest` then gets no event for the others): for a visitor that
   * reads a matched event only for correlations (the parse job).
   */
  readonly correlatedEventsOnly?: boolean;
}

export interface DecodeFilesResult {
  /** Files decoded to the end. */
  readonly parsed: number;
  /** Files that could not be read, in input order: the name and why. */
  readonly failures: { readonly file: string; readonly error: TaeError }[];
}

export const INLINE_BELOW_BYTES = 8 * 1024 * 1024;

export async function decodeFiles(
  files: readonly PipelineFile[],
  options: DecodeFilesOptions,
  visitor: FilesVisitor,
): Promise<DecodeFilesResult> {
  const inlineBelow = options.inlineBelowBytes ?? INLINE_BELOW_BYTES;
  const digesting = options.digest === true && visitor.digest !== undefined;
  // The portable rules are made (or read) only once a file goes to the pool.
  let staged: ReturnType<typeof pipelineStage> | null = null;
  const failures: { file: string; error: TaeError }[] = [];
  let parsed = 0;
  let pooledAny: DecodePool | undefined;
  // The next file is opened while this one decodes: opening a private stored file authenticates
  // it whole (a pass over its bytes on this thread), which left the workers idle at the start of
  // each file of a job.
  let opening = files.length > 0 ? openEarly(files[0]!) : undefined;
  try {
    for (const [index, input] of files.entries()) {
      let name = input.name;
      let source: EvtxSource | EvtxReader | undefined;
      try {
        const current = opening;
        // None was opened only when the signal was aborted (the catch below reports it so).
        if (current === undefined) throw cancelled(options.signal!, null);
        let opened: Opened;
        try {
          opened = await current;
        } finally {
          opening =
            index + 1 < files.length && options.signal?.aborted !== true
              ? openEarly(files[index + 1]!)
              : undefined;
        }
        source = opened.source;
        name = opened.name ?? name;
        const pool = options.pool !== undefined && opened.size >= inlineBelow ? options.pool() : undefined;
        pooledAny ??= pool;
        const pooled = pool !== undefined;
        const parseOptions = {
          label: name,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(pool ? { pool } : {}),
        };
        if (pooled)
          staged ??= pipelineStage(options.sigma, options.rows, {
            digest: digesting,
            ...(options.onlyMatched === undefined ? {} : { onlyMatched: options.onlyMatched }),
            ...(options.correlatedEventsOnly === undefined
              ? {}
              : { correlatedEventsOnly: options.correlatedEventsOnly }),
          });
        const stage = pooled ? staged : undefined;
        const parse = parseEvtxStaged(source, parseOptions, stage?.stage, stage?.spanChunks);
        const file: FileInProgress = { name, index, size: opened.size, parse };
        await forEachEvent(
          parse,
          stage?.rules,
          {
            event: (e, matched, row) => visitor.event(e, file, matched, row),
            digest: (d, e, matched, row) => visitor.digest!(d, e, file, matched, row),
            skipped: (count) => visitor.skipped?.(count, file),
          },
          visitor.ready?.bind(visitor),
        );
        visitor.fileDone?.(file);
        parsed++;
      } catch (e) {
        if (options.signal?.aborted) throw cancelled(options.signal, e);
        // A full disk (the visitor's event index could not be written) stops the run: it is no
        // file's fault, and every later file would meet it too (a job reported each file as
        // failed with it, decoding on for nothing, and could fail without saying the disk is full).
        if (!isTaeError(e) || isNoSpace(e)) throw e;
        failures.push({ file: name, error: e });
      } finally {
        // A parse closes its reader when it runs to the end or fails; one never started does not.
        if (source !== undefined && isEvtxReader(source)) await source.close().catch(() => {});
      }
    }
  } finally {
    await closeUnused(opening);
    // What follows (a job's index completion, a report) does not decode: its workers' heaps go.
    pooledAny?.release();
  }
  return { parsed, failures };
}

type Opened = Awaited<ReturnType<PipelineFile['open']>>;

/** Opens `file` now; its promise is observed when the file's turn comes (no unhandled rejection meanwhile). */
function openEarly(file: PipelineFile): Promise<Opened> {
  let p: Promise<Opened>;
  try {
    p = file.open();
  } catch (e) {
    p = Promise.reject(e);
  }
  p.catch(() => {});
  return p;
}

/** Closes the reader of a file opened early whose turn never came (the run stopped before it). */
async function closeUnused(opening: Promise<Opened> | undefined): Promise<void> {
  if (opening === undefined) return;
  try {
    const { source } = await opening;
    if (isEvtxReader(source)) await source.close();
  } catch {
    // It failed to open: nothing to close, and its error belongs to a run that stopped.
  }
}

/** The signal's own CANCELLED error (a job's `job cancelled`), or a plain one. */
function cancelled(signal: AbortSignal, cause: unknown): TaeError {
  const reason: unknown = signal.reason;
  return isTaeError(reason) && reason.code === 'CANCELLED'
    ? reason
    : new TaeError('CANCELLED', 'cancelled', { cause });
}

/** Files named by path, read in place (the decoder reports a missing or unreadable one). */
export const pathFiles = (paths: readonly string[]): PipelineFile[] =>
  paths.map((path) => ({
    name: path,
    open: async () => ({ source: path, size: statSync(path, { throwIfNoEntry: false })?.size ?? 0 }),
  }));
