/** `parseEvtx`: the streaming public entry point over a file path or a Buffer, inline or pooled. */

import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { invalidOption, TaeError } from '../errors/index.js';
import {
  CHUNK_SIZE,
  type DecodedChunk,
  type Diagnostic,
  type EvtxFileHeader,
  FILE_HEADER_SIZE,
  type ParsedRecord,
  type RecordOutput,
} from '../evtx/index.js';
import { type ChunkWalk, type EvtxSource, type RawChunk, walkChunks } from './chunks.js';
import { type DecodeOptions, decodeSafely, type SpanTask } from './decode-worker.js';
import { DecodePool, orderedDecode } from './pool.js';

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
  /** A label (file name) stamped on diagnostics. */
  readonly label?: string;
  readonly signal?: AbortSignal;
  /** Reuse a pool across calls (its thread count wins over `threads`). */
  readonly pool?: DecodePool;
}

export interface ParseStats {
  chunks: number;
  records: number;
  bytes: number;
}

const OUTPUTS: readonly RecordOutput[] = ['event', 'json', 'xml'];

function resolve(options: ParseEvtxOptions) {
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
  ) {}

  async *chunks(): AsyncGenerator<DecodedChunk> {
    if (this.started) throw new TaeError('INVALID_ARGUMENT', 'a parse can be iterated only once');
    this.started = true;
    const o = resolve(this.options);
    const pooled = this.options.pool !== undefined || o.threads > 0;
    // Inline decoding is done with each chunk before reading the next: no copies needed.
    const walk = await walkChunks(this.source, { shared: !pooled });
    this.header = walk.header;
    this.note(walk.diagnostics);
    const options: DecodeOptions = {
      outputs: o.outputs,
      validateChecksums: o.validateChecksums,
      timePrecision: o.timePrecision,
      batchText: o.batchText,
    };
    const signal = this.options.signal;
    const pool = this.options.pool ?? (o.threads > 0 ? new DecodePool(o.threads) : null);
    try {
      const decoded =
        pool === null
          ? inline(walk.chunks, options, signal)
          : orderedDecode(spanTasks(this.source, walk, options), pool, 2 * pool.threads, signal);
      for await (const d of decoded) {
        this.stats.chunks++;
        this.stats.records += d.recordCount;
        this.note(d.diagnostics);
        yield d;
      }
    } finally {
      if (pool !== null && pool !== this.options.pool) await pool.close();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ParsedRecord> {
    for await (const d of this.chunks()) yield* d.records;
  }

  private note(diagnostics: readonly Diagnostic[]): void {
    const file = this.options.label ?? (typeof this.source === 'string' ? this.source : undefined);
    for (const d of diagnostics) this.diagnostics.push(file === undefined ? d : { ...d, file });
  }
}

async function* inline(
  chunks: AsyncIterable<RawChunk>,
  options: DecodeOptions,
  signal?: AbortSignal,
): AsyncGenerator<DecodedChunk> {
  for await (const c of chunks) {
    if (signal?.aborted) throw new TaeError('CANCELLED', 'parse cancelled', { cause: signal.reason });
    yield decodeSafely(c.bytes, { ...options, chunkIndex: c.index, fileOffset: c.fileOffset });
  }
}

/** Chunks per pool task: large enough to amortise a task's cost, small enough to balance threads. */
const SPAN_CHUNKS = 8;

/** File sources are read by the workers themselves; buffers are sliced and transferred. */
async function* spanTasks(
  source: EvtxSource,
  walk: ChunkWalk,
  options: DecodeOptions,
): AsyncGenerator<SpanTask> {
  if (typeof source === 'string') {
    await walk.close();
    const { size } = await stat(source);
    for (let i = 0, off = FILE_HEADER_SIZE; off < size; i += SPAN_CHUNKS, off += SPAN_CHUNKS * CHUNK_SIZE) {
      yield { ...options, kind: 'file', path: source, firstIndex: i, fileOffset: off, count: SPAN_CHUNKS };
    }
    return;
  }
  for (
    let i = 0, off = FILE_HEADER_SIZE;
    off < source.length;
    i += SPAN_CHUNKS, off += SPAN_CHUNKS * CHUNK_SIZE
  ) {
    const bytes = Uint8Array.prototype.slice.call(source, off, off + SPAN_CHUNKS * CHUNK_SIZE);
    yield {
      ...options,
      kind: 'bytes',
      bytes: bytes.buffer as ArrayBuffer,
      byteLength: bytes.length,
      firstIndex: i,
      fileOffset: off,
    };
  }
}

/**
 * Decodes an EVTX file or buffer as a stream of records. Memory stays bounded by the
 * chunks in flight, whatever the file size.
 */
export function parseEvtx(source: EvtxSource, options: ParseEvtxOptions = {}): EvtxParse {
  if (typeof source !== 'string' && !(source instanceof Uint8Array)) {
    throw new TaeError('INVALID_ARGUMENT', 'source must be a file path or a Uint8Array');
  }
  resolve(options);
  return new EvtxParse(source, options);
}

export const defaultThreads = (): number => Math.max(1, Math.min(availableParallelism(), 8));
