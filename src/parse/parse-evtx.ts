/** `parseEvtx`: the streaming public entry point over a file path or a Buffer, inline or pooled. */

import { availableParallelism } from 'node:os';
import { checkOptionKeys, invalidOption, isTaeError, TaeError } from '../errors/index.js';
import {
  CHUNK_SIZE,
  type DecodedChunk,
  type Diagnostic,
  type EvtxFileHeader,
  FILE_HEADER_SIZE,
  noChunksDiagnostic,
  type ParsedRecord,
  type RecordOutput,
  Sink,
} from '../evtx/index.js';
import {
  type ChunkWalk,
  type EvtxReader,
  type EvtxSource,
  isEvtxReader,
  type RawChunk,
  readSize,
  walkChunks,
} from './chunks.js';
import { type DecodeOptions, decodeSafely, type SpanTask } from './decode-worker.js';
import { DecodePool, orderedDecode, type SpareBuffers } from './pool.js';

export interface ParseEvtxOptions {
  /** 0 decodes on the calling thread; N ≥ 1 uses N worker threads (default: 0). */
  readonly threads?: number;
  /** Renderings to produce per record (default `['event']`). */
  readonly outputs?: readonly RecordOutput[];
  /** Skip chunks whose checksums fail instead of decoding them with a warning (default false). */
  readonly validateChecksums?: boolean;
  /** JSON timestamps: `crate` (microseconds, like evtx_dump; default) or `100ns`. */
  readonly timePrecision?: 'crate' | '100ns';
  /** Deliver JSON/XML renderings as one string per chunk (`DecodedChunk.text`); see `chunks()`. */
  readonly batchText?: boolean;
  /**
   * With `batchText`: reuse the buffers behind `DecodedChunk.text`. A chunk's text is then
   * valid only until the next chunk is asked for (copy it to keep it). For consumers that
   * write each chunk out before asking for the next: it saves a buffer and a copy per chunk.
   */
  readonly recycleText?: boolean;
  /** A label (file name) stamped on diagnostics. */
  readonly label?: string;
  readonly signal?: AbortSignal;
  /** Reuse a pool across calls (its thread count wins over `threads`). */
  readonly pool?: DecodePool;
}

export interface ParseStats {
  chunks: number;
  records: number;
  /** Bytes of the source read so far (the file size once a parse is done). */
  bytes: number;
}

const KNOWN_OPTIONS: Record<keyof ParseEvtxOptions, true> = {
  threads: true,
  outputs: true,
  validateChecksums: true,
  timePrecision: true,
  batchText: true,
  recycleText: true,
  label: true,
  signal: true,
  pool: true,
};

const OUTPUTS: readonly RecordOutput[] = ['event', 'json', 'xml'];

function resolve(options: ParseEvtxOptions) {
  checkOptionKeys(options, KNOWN_OPTIONS);
  const threads = options.threads ?? 0;
  if (!Number.isInteger(threads) || threads < 0 || threads > 64) {
    throw invalidOption('threads', 'an integer from 0 to 64', threads);
  }
  const outputs = options.outputs ?? ['event'];
  if (!Array.isArray(outputs) || outputs.length === 0 || outputs.some((o) => !OUTPUTS.includes(o))) {
    throw invalidOption('outputs', `a non-empty array of ${OUTPUTS.join(', ')}`, outputs);
  }
  const timePrecision = options.timePrecision ?? 'crate';
  if (timePrecision !== 'crate' && timePrecision !== '100ns') {
    throw invalidOption('timePrecision', '"crate" or "100ns"', timePrecision);
  }
  return {
    threads,
    outputs,
    timePrecision,
    validateChecksums: options.validateChecksums === true,
    batchText: options.batchText === true,
    recycleText: options.recycleText === true,
  };
}

/** A running parse: iterate records (or whole chunks); diagnostics and stats fill in as it goes. */
export class EvtxParse implements AsyncIterable<ParsedRecord> {
  readonly diagnostics: Diagnostic[] = [];
  readonly stats: ParseStats = { chunks: 0, records: 0, bytes: 0 };
  header: EvtxFileHeader | null = null;
  private started = false;

  constructor(
    private readonly source: EvtxSource,
    private readonly options: ParseEvtxOptions,
    /** Passed to pool tasks (SpanTask's `stage`); inline decoding ignores it. */
    private readonly stage?: unknown,
  ) {}

  async *chunks(): AsyncGenerator<DecodedChunk> {
    if (this.started) throw new TaeError('INVALID_ARGUMENT', 'a parse can be iterated only once');
    this.started = true;
    const o = resolve(this.options);
    const pooled = this.options.pool !== undefined || o.threads > 0;
    // Inline decoding is done with each chunk before reading the next: no copies needed.
    const walk = await walkChunks(this.source, { shared: !pooled });
    this.header = walk.header;
    this.stats.bytes += walk.headerBytes;
    this.note(walk.diagnostics);
    const options: DecodeOptions = {
      outputs: o.outputs,
      validateChecksums: o.validateChecksums,
      timePrecision: o.timePrecision,
      batchText: o.batchText,
    };
    const signal = this.options.signal;
    const spares: SpareBuffers = { bytes: [], text: [] };
    const pool = this.options.pool ?? (o.threads > 0 ? new DecodePool(o.threads) : null);
    try {
      const decoded =
        pool === null
          ? inline(walk.chunks, options, o.recycleText, this.stats, signal)
          : orderedDecode(
              spanTasks(walk, options, spares, this.stats, this.stage, stageSpanChunks.get(this)),
              pool,
              2 * pool.threads,
              spares,
              o.recycleText,
              signal,
            );
      for await (const d of decoded) {
        this.stats.chunks++;
        this.stats.records += d.recordCount;
        this.note(d.diagnostics);
        yield d;
      }
      if (this.stats.chunks === 0) this.note([noChunksDiagnostic(walk.header)]);
    } catch (e) {
      // Piscina rejects aborted tasks with its own AbortError: callers see one code either way.
      if (signal?.aborted === true && !isTaeError(e)) throw cancelled(signal);
      throw e;
    } finally {
      if (pool !== null && pool !== this.options.pool) await pool.close();
    }
  }

  /** Records one by one; a `batchText` parse has none (its text comes per chunk) and refuses. */
  async *[Symbol.asyncIterator](): AsyncGenerator<ParsedRecord> {
    if (this.options.batchText === true)
      throw new TaeError(
        'INVALID_ARGUMENT',
        'a batchText parse delivers text per chunk, not records: iterate parse.chunks(), or parse without batchText',
        { context: { option: 'batchText' } },
      );
    for await (const d of this.chunks()) yield* d.records;
  }

  private note(diagnostics: readonly Diagnostic[]): void {
    const file = this.options.label ?? (typeof this.source === 'string' ? this.source : undefined);
    for (const d of diagnostics) this.diagnostics.push(file === undefined ? d : { ...d, file });
  }
}

const cancelled = (signal: AbortSignal) =>
  new TaeError('CANCELLED', 'parse cancelled', { cause: signal.reason });

async function* inline(
  chunks: AsyncIterable<RawChunk>,
  options: DecodeOptions,
  recycleText: boolean,
  stats: ParseStats,
  signal?: AbortSignal,
): AsyncGenerator<DecodedChunk> {
  const textOut = recycleText && options.batchText === true ? new Sink() : undefined;
  for await (const c of chunks) {
    if (signal?.aborted) throw cancelled(signal);
    stats.bytes += c.bytes.length;
    const task = { ...options, chunkIndex: c.index, fileOffset: c.fileOffset };
    if (textOut === undefined) {
      yield decodeSafely(c.bytes, task);
      continue;
    }
    textOut.pos = 0;
    const d = decodeSafely(c.bytes, task, textOut);
    yield { ...d, text: textOut.buf.subarray(0, textOut.pos) };
  }
}

/**
 * Chunks per pool task: large enough to amortise a task's cost, small enough to balance
 * threads. Measured on 1 GiB with 2 workers: text does best at 16 (of 8, 16, 32). Records stay
 * alive until their span is sent, and arrive on the consumer's thread all at once, where a
 * young-generation collection then copies them: 16 cost 10% more CPU in GC than 8, and 2 less
 * than 8 (the 1 GB private job: 31.3–31.5 s, 55 s of CPU and 475–478 MiB peak, against
 * 32.5–33.1 s, 59 s and 501–505 MiB; V8's collector threads 19 % less CPU on one 238 MB file).
 * A stage whose results are not the records (the pipeline's digests) sets its own.
 */
const spanChunks = (options: DecodeOptions, stageSpan: number | undefined): number =>
  stageSpan ?? (options.batchText === true ? 16 : 2);

/** Chunks per pool task of the parses a stage set its own for (parseEvtxStaged); not public. */
const stageSpanChunks = new WeakMap<EvtxParse, number>();

/**
 * Spans read on this thread (the reads run on libuv's threads, beside the decoding) into
 * buffers the workers handed back, or new ones while fewer than the in-flight spans exist.
 */
async function* spanTasks(
  walk: ChunkWalk,
  options: DecodeOptions,
  spares: SpareBuffers,
  stats: ParseStats,
  stage: unknown,
  stageSpan: number | undefined,
): AsyncGenerator<SpanTask> {
  const chunks = spanChunks(options, stageSpan);
  const spanBytes = chunks * CHUNK_SIZE;
  try {
    for (let i = 0, off = FILE_HEADER_SIZE; ; i += chunks, off += spanBytes) {
      const want = readSize(spanBytes, off, walk.size);
      const spare = spares.bytes.pop();
      const bytes = spare !== undefined && spare.byteLength >= want ? spare : new ArrayBuffer(want);
      const n = await walk.read(new Uint8Array(bytes, 0, want), off);
      if (n === 0) return;
      stats.bytes += n;
      yield {
        ...options,
        bytes,
        byteLength: n,
        firstIndex: i,
        fileOffset: off,
        ...(stage === undefined ? {} : { stage }),
      };
      if (n < spanBytes) return; // the last span (a smaller `want` is the rest of the file)
    }
  } finally {
    await walk.close();
  }
}

/**
 * Decodes an EVTX file or buffer as a stream of records. Memory stays bounded by the
 * chunks in flight, whatever the file size.
 *
 * @example
 * const parse = parseEvtx('Security.evtx', { outputs: ['event'] });
 * for await (const record of parse)
 *   if (record.event?.eventId === 4625) console.log(record.event.recordId, record.event.data.TargetUserName);
 * console.log(`${parse.stats.records} records, ${parse.diagnostics.length} diagnostics`);
 */
export function parseEvtx(source: EvtxSource, options: ParseEvtxOptions = {}): EvtxParse {
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) {
    throw new TaeError('INVALID_ARGUMENT', 'source must be a file path or a Uint8Array');
  }
  resolve(options);
  return new EvtxParse(source, options);
}

export const defaultThreads = (): number => Math.max(1, Math.min(availableParallelism(), 8));

/**
 * `parseEvtx` over a reader (the engine's private files, decrypted segment by segment): read
 * span by span like a file, and closed when the parse ends. Not part of the public surface.
 */
export function parseEvtxReader(reader: EvtxReader, options: ParseEvtxOptions = {}): EvtxParse {
  if (!isEvtxReader(reader)) throw new TaeError('INVALID_ARGUMENT', 'reader must have read and close');
  resolve(options);
  // The public constructor names the public sources; walkChunks reads a reader as well.
  return new EvtxParse(reader as unknown as EvtxSource, options);
}

/**
 * `parseEvtx` or `parseEvtxReader` whose pool tasks carry `stage` (for a pool made with its own
 * worker, see DecodePool). Not part of the public surface.
 */
export function parseEvtxStaged(
  source: EvtxSource | EvtxReader,
  options: ParseEvtxOptions,
  stage: unknown,
  /** Chunks per pool task for this stage (default: the records' own, see `spanChunks`). */
  spanChunksOfStage?: number,
): EvtxParse {
  if (typeof source !== 'string' && !(source instanceof Uint8Array) && !isEvtxReader(source))
    throw new TaeError('INVALID_ARGUMENT', 'source must be a file path, a Uint8Array or a reader');
  resolve(options);
  const parse = new EvtxParse(source as EvtxSource, options, stage);
  if (spanChunksOfStage !== undefined) stageSpanChunks.set(parse, spanChunksOfStage);
  return parse;
}
