/**
 * Pool worker. A task is a span of consecutive chunks: either read by the worker itself
 * from the file (so the main thread does no I/O or copying) or transferred as bytes.
 * A bug surfaces as a diagnostic, never as a lost file.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Piscina } from 'piscina';
import { CHUNK_SIZE, type DecodedChunk, type DecodeTask, decodeChunkTo } from '../evtx/index.js';

export type DecodeOptions = Omit<DecodeTask, 'chunkIndex' | 'fileOffset'>;

export type SpanTask = DecodeOptions &
  (
    | {
        readonly kind: 'file';
        readonly path: string;
        readonly firstIndex: number;
        readonly fileOffset: number;
        readonly count: number;
      }
    | {
        readonly kind: 'bytes';
        readonly bytes: ArrayBuffer;
        readonly byteLength: number;
        readonly firstIndex: number;
        readonly fileOffset: number;
      }
  );

export function decodeSafely(bytes: Uint8Array, task: DecodeTask): DecodedChunk {
  try {
    return decodeChunkTo(bytes, task);
  } catch (e) {
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

/** Decodes every 64 KiB chunk of `bytes` (the last may be partial). */
export function decodeSpan(
  bytes: Uint8Array,
  firstIndex: number,
  fileOffset: number,
  options: DecodeOptions,
): DecodedChunk[] {
  const out: DecodedChunk[] = [];
  for (let at = 0, i = firstIndex; at < bytes.length; at += CHUNK_SIZE, i++) {
    const chunk = bytes.subarray(at, Math.min(bytes.length, at + CHUNK_SIZE));
    out.push(decodeSafely(chunk, { ...options, chunkIndex: i, fileOffset: fileOffset + at }));
  }
  return out;
}

let readBuffer = new Uint8Array(0);

function readSpan(path: string, fileOffset: number, count: number): Uint8Array {
  const want = count * CHUNK_SIZE;
  if (readBuffer.length < want) readBuffer = new Uint8Array(want);
  const fd = openSync(path, 'r');
  try {
    let filled = 0;
    while (filled < want) {
      const n = readSync(fd, readBuffer, filled, want - filled, fileOffset + filled);
      if (n === 0) break;
      filled += n;
    }
    return readBuffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

export default function decodeWorker(task: SpanTask): DecodedChunk[] {
  const bytes =
    task.kind === 'file'
      ? readSpan(task.path, task.fileOffset, task.count)
      : new Uint8Array(task.bytes, 0, task.byteLength);
  const decoded = decodeSpan(bytes, task.firstIndex, task.fileOffset, task);
  const buffers = decoded.flatMap((d) => (d.text === undefined ? [] : [d.text.buffer]));
  if (buffers.length === 0) return decoded;
  // Transfer the rendered text instead of copying it back to the main thread.
  const transferable = {
    get [Piscina.transferableSymbol]() {
      return buffers;
    },
    get [Piscina.valueSymbol]() {
      return decoded;
    },
  };
  return Piscina.move(transferable as never) as unknown as DecodedChunk[];
}
