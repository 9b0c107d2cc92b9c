/** Opening a source and walking every 64 KiB chunk to the end of the input. */
import { open } from 'node:fs/promises';
import {
  CHUNK_SIZE,
  type Diagnostic,
  type EvtxFileHeader,
  FILE_HEADER_SIZE,
  parseFileHeader,
} from '../evtx/index.js';
import { checkSourceFile, unreadableSource } from './source-file.js';

/**
 * Bytes read at offsets, e.g. a private file decrypted segment by segment (store/content.ts):
 * the parse reads it span by span as it reads a file, so it is never whole in memory.
 */
export interface EvtxReader {
  /** Fills `into` from `offset`; resolves to the count, short or 0 only at the end. */
  read(into: Uint8Array, offset: number): Promise<number>;
  /** Releases what the reader holds; called once the parse is done with it. */
  close(): Promise<void>;
}

/** What `parseEvtx` takes: a file path or the bytes. */
export type EvtxSource = string | Uint8Array;

/** What the engine's jobs also parse (parse-evtx.ts `parseEvtxReader`): a reader. */
export type AnySource = EvtxSource | EvtxReader;

export const isEvtxReader = (s: unknown): s is EvtxReader =>
  typeof s === 'object' &&
  s !== null &&
  !(s instanceof Uint8Array) &&
  typeof (s as EvtxReader).read === 'function' &&
  typeof (s as EvtxReader).close === 'function';

type ReadAt = (into: Uint8Array, at: number, length: number, position: number) => Promise<number>;

export interface RawChunk {
  readonly index: number;
  readonly fileOffset: number;
  readonly bytes: Uint8Array;
}

export interface ChunkWalk {
  header: EvtxFileHeader | null;
  /** Bytes of the file header read (the whole header, or less in a shorter source). */
  headerBytes: number;
  diagnostics: Diagnostic[];
  chunks: AsyncGenerator<RawChunk>;
  /**
   * Fills `into` with the source's bytes from `offset` (for a consumer that reads spans into
   * buffers of its own instead of iterating `chunks`); resolves to the count, 0 at the end.
   */
  read(into: Uint8Array, offset: number): Promise<number>;
  /** Releases the file when the chunks will not be iterated (idempotent). */
  close(): Promise<void>;
  /** The source's size when it was opened, when known (a file's, a buffer's). */
  readonly size?: number;
}

/**
 * Bytes to read at `offset` into a buffer of at most `most`: no more than the rest of a source
 * of known `size`, in whole chunks (one at least, to see whether it grew). A file of 90 KB got
 * buffers of 4 MiB (inline) or 512 KiB (pool) each: on the 593 attack samples, 2.4 GB allocated
 * and collected inline, and each span's buffer copied back whole from its worker.
 */
export function readSize(most: number, offset: number, size: number | undefined): number {
  if (size === undefined) return most;
  const rest = Math.ceil(Math.max(0, size - offset) / CHUNK_SIZE) * CHUNK_SIZE;
  return Math.max(CHUNK_SIZE, Math.min(most, rest));
}

export interface WalkOptions {
  /**
   * Yield views of one reused read buffer (or of the source buffer) instead of a fresh copy
   * per chunk: for a consumer that is done with each chunk before asking for the next.
   */
  readonly shared?: boolean;
}

/**
 * Opens a source and yields its chunks one by one (a fresh buffer each, so it can be
 * transferred to a worker, unless `shared`). The header's chunk count is ignored: dirty
 * logs have more.
 */
export async function walkChunks(source: AnySource, options: WalkOptions = {}): Promise<ChunkWalk> {
  const shared = options.shared === true;
  if (isEvtxReader(source)) return readerWalk(source, shared);
  if (typeof source !== 'string') {
    const { header, diagnostics } = parseFileHeader(
      source.subarray(0, FILE_HEADER_SIZE),
      source.length > FILE_HEADER_SIZE ? source.subarray(FILE_HEADER_SIZE, FILE_HEADER_SIZE + 8) : null,
    );
    const read = async (into: Uint8Array, offset: number) => {
      const part = source.subarray(Math.min(offset, source.length), offset + into.length);
      into.set(part);
      return part.length;
    };
    const headerBytes = Math.min(source.length, FILE_HEADER_SIZE);
    return {
      header,
      diagnostics,
      headerBytes,
      chunks: bufferChunks(source, shared),
      read,
      close: async () => {},
      size: source.length,
    };
  }
  const size = await checkSourceFile(source);
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(source, 'r');
  } catch (e) {
    throw unreadableSource(source, e);
  }
  // A read that fails later (EIO, a share gone away) is the input's fault too, and coded.
  const readAt: ReadAt = async (into, at, length, position) => {
    try {
      return (await fh.read(into, at, length, position)).bytesRead;
    } catch (e) {
      throw unreadableSource(source, e, 'read');
    }
  };
  try {
    const head = Buffer.alloc(FILE_HEADER_SIZE + 8);
    const bytesRead = await readAt(head, 0, head.length, 0);
    const { header, diagnostics } = parseFileHeader(
      head.subarray(0, Math.min(bytesRead, FILE_HEADER_SIZE)),
      bytesRead > FILE_HEADER_SIZE ? head.subarray(FILE_HEADER_SIZE, bytesRead) : null,
    );
    let closed = false;
    const close = async () => {
      if (!closed) {
        closed = true;
        await fh.close();
      }
    };
    const read = async (into: Uint8Array, offset: number) => {
      let filled = 0;
      while (filled < into.length) {
        const bytesRead = await readAt(into, filled, into.length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled;
    };
    const headerBytes = Math.min(bytesRead, FILE_HEADER_SIZE);
    const chunks = fileChunks(readAt, close, shared, size);
    return { header, diagnostics, headerBytes, chunks, read, close, size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

async function readerWalk(reader: EvtxReader, shared: boolean): Promise<ChunkWalk> {
  const readAt: ReadAt = (into, at, length, position) =>
    reader.read(into.subarray(at, at + length), position);
  let closed = false;
  const close = async () => {
    if (!closed) {
      closed = true;
      await reader.close();
    }
  };
  try {
    const head = Buffer.alloc(FILE_HEADER_SIZE + 8);
    const bytesRead = await reader.read(head, 0);
    const { header, diagnostics } = parseFileHeader(
      head.subarray(0, Math.min(bytesRead, FILE_HEADER_SIZE)),
      bytesRead > FILE_HEADER_SIZE ? head.subarray(FILE_HEADER_SIZE, bytesRead) : null,
    );
    const headerBytes = Math.min(bytesRead, FILE_HEADER_SIZE);
    const read = (into: Uint8Array, offset: number) => reader.read(into, offset);
    return { header, diagnostics, headerBytes, chunks: fileChunks(readAt, close, shared), read, close };
  } catch (e) {
    await close();
    throw e;
  }
}

async function* bufferChunks(b: Uint8Array, shared: boolean): AsyncGenerator<RawChunk> {
  let index = 0;
  for (let off = FILE_HEADER_SIZE; off < b.length; off += CHUNK_SIZE, index++) {
    const end = Math.min(b.length, off + CHUNK_SIZE);
    // Uint8Array's slice copies (Buffer's would share memory), so the chunk can be transferred.
    yield {
      index,
      fileOffset: off,
      bytes: shared ? b.subarray(off, end) : Uint8Array.prototype.slice.call(b, off, end),
    };
  }
}

/** Reads 1 MiB at a time (fewer syscalls), handing out one freshly allocated buffer per chunk. */
const READ_BLOCK = 16 * CHUNK_SIZE;
/** Shared views allocate nothing per chunk, so a larger block just means fewer reads. */
const SHARED_READ_BLOCK = 64 * CHUNK_SIZE;

async function* fileChunks(
  readAt: ReadAt,
  close: () => Promise<void>,
  shared: boolean,
  size?: number,
): AsyncGenerator<RawChunk> {
  try {
    let index = 0;
    const most = shared ? SHARED_READ_BLOCK : READ_BLOCK;
    const READ_BLOCK_SIZE = readSize(most, FILE_HEADER_SIZE, size);
    const block = Buffer.allocUnsafeSlow(READ_BLOCK_SIZE);
    for (let off = FILE_HEADER_SIZE; ; off += READ_BLOCK_SIZE) {
      let filled = 0;
      while (filled < READ_BLOCK_SIZE) {
        const bytesRead = await readAt(block, filled, READ_BLOCK_SIZE - filled, off + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      for (let at = 0; at < filled; at += CHUNK_SIZE, index++) {
        const end = Math.min(filled, at + CHUNK_SIZE);
        const bytes = shared ? block.subarray(at, end) : Uint8Array.prototype.slice.call(block, at, end);
        yield { index, fileOffset: off + at, bytes };
      }
      if (filled < READ_BLOCK_SIZE || READ_BLOCK_SIZE < most) return; // a smaller block is the rest
    }
  } finally {
    await close();
  }
}
