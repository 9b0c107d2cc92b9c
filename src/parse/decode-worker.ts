/**
 * Pool worker. A task is a span of consecutive chunks, transferred in a buffer. With batch
 * text, that buffer goes back with the result, as does the one holding the span's text: the
 * main thread hands both out again, so steady-state decoding allocates no buffers. A bug
 * surfaces as a diagnostic, never as a lost file.
 */
import { Piscina } from 'piscina';
import { CHUNK_SIZE, type DecodedChunk, type DecodeTask, decodeChunkTo, Sink } from '../evtx/index.js';

export type DecodeOptions = Omit<DecodeTask, 'chunkIndex' | 'fileOffset'>;

export interface SpanTask extends DecodeOptions {
  /** The span's bytes: `byteLength` bytes at the start of this (transferred) buffer. */
  readonly bytes: ArrayBuffer;
  readonly byteLength: number;
  readonly firstIndex: number;
  readonly fileOffset: number;
  /** With `batchText`: a buffer (transferred) to render the span's text into, instead of a new one. */
  readonly textBuffer?: ArrayBuffer;
  /**
   * Work on the decoded records that the pool's worker (when it is not this one) does before
   * sending them back (see DecodePool's `worker`): opaque here, passed through.
   */
  readonly stage?: unknown;
}

export interface SpanResult {
  readonly chunks: DecodedChunk[];
  /** The task's `bytes`, handed back for the next span (text results, and the pipeline's staged ones). */
  readonly bytes?: ArrayBuffer;
}

/** Decodes a chunk; a throw becomes a diagnostic, and text it appended to `textOut` is dropped. */
export function decodeSafely(bytes: Uint8Array, task: DecodeTask, textOut?: Sink): DecodedChunk {
  const start = textOut?.pos ?? 0;
  try {
    return decodeChunkTo(bytes, task, textOut);
  } catch (e) {
    if (textOut !== undefined) textOut.pos = start;
    return {
      chunkIndex: task.chunkIndex,
      records: [],
      recordCount: 0,
      diagnostics: [
        {
          code: 'record.bad_binxml',
          message: `chunk could not be decoded: ${(e as Error).message}`,
          chunk: task.chunkIndex,
          offset: task.fileOffset,
          severity: 'error',
        },
      ],
    };
  }
}

/** The decoding options a span task carries. */
const spanOptions = (task: SpanTask): DecodeOptions => ({
  outputs: task.outputs,
  validateChecksums: task.validateChecksums,
  timePrecision: task.timePrecision,
  ...(task.batchText === undefined ? {} : { batchText: task.batchText }),
});

/**
 * Each 64 KiB chunk of a span task (the last may be partial), decoded and handed to `each`
 * before the next is decoded, its batch text appended to `textOut` when given. A worker that
 * keeps less than the records (the pipeline's digests) then holds one chunk's records at a
 * time, whatever the span's size.
 */
export function mapSpan<T>(task: SpanTask, each: (chunk: DecodedChunk) => T, textOut?: Sink): T[] {
  const bytes = new Uint8Array(task.bytes, 0, task.byteLength);
  const options = spanOptions(task);
  const out: T[] = [];
  for (let at = 0, i = task.firstIndex; at < bytes.length; at += CHUNK_SIZE, i++) {
    const chunk = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_SIZE));
    out.push(
      each(decodeSafely(chunk, { ...options, chunkIndex: i, fileOffset: task.fileOffset + at }, textOut)),
    );
  }
  return out;
}

/** A span's chunks with their batch text in `textOut`: each chunk's `text` is a view of the sink's final buffer. */
function textSpan(task: SpanTask, textOut: Sink): DecodedChunk[] {
  const ends: number[] = [];
  const out = mapSpan(
    task,
    (d) => {
      ends.push(textOut.pos);
      return d;
    },
    textOut,
  );
  // Views are made last: the sink may have moved to a larger buffer while the span was written.
  const { buffer, byteOffset } = textOut.buf;
  return out.map((d, i) => {
    const start = i === 0 ? 0 : ends[i - 1]!;
    return { ...d, text: new Uint8Array(buffer, byteOffset + start, ends[i]! - start) };
  });
}

/** Room for a span's text when no buffer is handed in: 16 chunks render to about 0.6–0.8 MB. */
const SPAN_TEXT_BYTES = 1 << 20;

export default function decodeWorker(task: SpanTask): SpanResult {
  if (task.batchText !== true) {
    // Records are large object graphs. Returned through Piscina.move (to hand the input back)
    // they were kept past young collections: per GiB the worker's GC time doubled (0.9 to
    // 1.9 s) and two workers used 3 s more CPU (measured). So only text results move.
    return { chunks: mapSpan(task, (chunk) => chunk) };
  }
  const textOut = new Sink(task.textBuffer === undefined ? SPAN_TEXT_BYTES : new Uint8Array(task.textBuffer));
  const result: SpanResult = {
    chunks: textSpan(task, textOut),
    bytes: task.bytes,
  };
  // Both buffers go back by transfer, not by copy.
  return movedResult(result, [task.bytes, textOut.buf.buffer as ArrayBuffer]);
}

/** `result`, returned with `buffers` (ArrayBuffers it holds) moved to the main thread, not copied. */
function movedResult(result: SpanResult, buffers: readonly ArrayBuffer[]): SpanResult {
  const transferable = {
    get [Piscina.transferableSymbol]() {
      return buffers;
    },
    get [Piscina.valueSymbol]() {
      return result;
    },
  };
  return Piscina.move(transferable as never) as unknown as SpanResult;
}
