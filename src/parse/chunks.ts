/** Opening a source and walking every 64 KiB chunk to the end of the input. */
import { open } from 'node:fs/promises';
import { TaeError } from '../errors/index.js';
import {
  CHUNK_SIZE,
  type Diagnostic,
  type EvtxFileHeader,
  FILE_HEADER_SIZE,
  parseFileHeader,
} from '../evtx/index.js';

export type EvtxSource = string | Uint8Array;

export interface RawChunk {
  readonly index: number;
  readonly fileOffset: number;
  readonly bytes: Uint8Array;
}

export interface ChunkWalk {
  header: EvtxFileHeader | null;
  diagnostics: Diagnostic[];
  chunks: AsyncGenerator<RawChunk>;
  /** Releases the file when the chunks will not be iterated (idempotent). */
  close(): Promise<void>;
}

/**
 * Opens a source and yields its chunks one by one (a fresh buffer each, so it can be
 * transferred to a worker). The header's chunk count is ignored: dirty logs have more.
 */
export async function walkChunks(source: EvtxSource): Promise<ChunkWalk> {
  if (typeof source !== 'string') {
    const { header, diagnostics } = parseFileHeader(
      source.subarray(0, FILE_HEADER_SIZE),
      source.length > FILE_HEADER_SIZE ? source.subarray(FILE_HEADER_SIZE, FILE_HEADER_SIZE + 8) : null,
    );
    return { header, diagnostics, chunks: bufferChunks(source), close: async () => {} };
  }
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(source, 'r');
  } catch (e) {
    throw new TaeError(
      'INPUT_UNREADABLE',
      `cannot open ${source}: ${(e as NodeJS.ErrnoException).code ?? e}`,
      {
        cause: e,
      },
    );
  }
  try {
    const head = Buffer.alloc(FILE_HEADER_SIZE + 8);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
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
    return { header, diagnostics, chunks: fileChunks(fh, close), close };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

async function* bufferChunks(b: Uint8Array): AsyncGenerator<RawChunk> {
  let index = 0;
  for (let off = FILE_HEADER_SIZE; off < b.length; off += CHUNK_SIZE, index++) {
    // Uint8Array's slice copies (Buffer's would share memory), so the chunk can be transferred.
    yield {
      index,
      fileOffset: off,
      bytes: Uint8Array.prototype.slice.call(b, off, Math.min(b.length, off + CHUNK_SIZE)),
    };
  }
}

/** Reads 1 MiB at a time (fewer syscalls), handing out one freshly allocated buffer per chunk. */
const READ_BLOCK = 16 * CHUNK_SIZE;

async function* fileChunks(
  fh: Awaited<ReturnType<typeof open>>,
  close: () => Promise<void>,
): AsyncGenerator<RawChunk> {
  try {
    let index = 0;
    const block = Buffer.allocUnsafeSlow(READ_BLOCK);
    for (let off = FILE_HEADER_SIZE; ; off += READ_BLOCK) {
      let filled = 0;
      while (filled < READ_BLOCK) {
        const { bytesRead } = await fh.read(block, filled, READ_BLOCK - filled, off + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      for (let at = 0; at < filled; at += CHUNK_SIZE, index++) {
        const end = Math.min(filled, at + CHUNK_SIZE);
        yield { index, fileOffset: off + at, bytes: Uint8Array.prototype.slice.call(block, at, end) };
      }
      if (filled < READ_BLOCK) return;
    }
  } finally {
    await close();
  }
}
