/** The file header and the walk over every 64 KiB chunk to the end of the input. */
import { open } from 'node:fs/promises';
import { TaeError } from '../errors/index.js';
import { u16, u32, u64 } from './bytes.js';
import { CHUNK_SIZE } from './chunk-context.js';
import { isChunkMagic } from './chunk.js';
import { zlib_crc32 } from './crc32.js';
import type { Diagnostic } from './diagnostics.js';

export const FILE_HEADER_SIZE = 4096;
const FILE_MAGIC = 'ElfFile\0';

export interface EvtxFileHeader {
  readonly firstChunk: bigint;
  readonly lastChunk: bigint;
  readonly nextRecordId: bigint;
  readonly minorVersion: number;
  readonly majorVersion: number;
  readonly chunkCount: number;
  readonly flags: number;
  readonly dirty: boolean;
  readonly full: boolean;
  readonly checksumValid: boolean;
}

export type EvtxSource = string | Uint8Array;

export interface RawChunk {
  readonly index: number;
  readonly fileOffset: number;
  readonly bytes: Uint8Array;
}

/** Reads the header; a damaged header is a diagnostic when chunks follow, else the input is not EVTX. */
export function parseFileHeader(
  b: Uint8Array,
  firstChunkBytes: Uint8Array | null,
): { header: EvtxFileHeader | null; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (b.length === 0) throw new TaeError('NOT_EVTX', 'input is empty (0 bytes), not an EVTX file');
  const magicOk = b.length >= 8 && String.fromCharCode(...b.subarray(0, 8)) === FILE_MAGIC;
  if (!magicOk || b.length < 128) {
    if (firstChunkBytes !== null && isChunkMagic(firstChunkBytes)) {
      diagnostics.push({
        code: 'file.bad_magic',
        message: 'file header is damaged; reading chunks anyway',
        chunk: -1,
        offset: 0,
        severity: 'warning',
      });
      return { header: null, diagnostics };
    }
    throw new TaeError('NOT_EVTX', 'input is not an EVTX file (no ElfFile header and no ElfChnk chunk)');
  }
  const flags = u32(b, 120);
  const checksumValid = u32(b, 124) === zlib_crc32(b.subarray(0, 120));
  if (!checksumValid && (flags & 4) === 0) {
    diagnostics.push({
      code: 'file.bad_header_crc',
      message: 'file header checksum mismatch',
      chunk: -1,
      offset: 124,
      severity: 'warning',
    });
  }
  return {
    header: {
      firstChunk: u64(b, 8),
      lastChunk: u64(b, 16),
      nextRecordId: u64(b, 24),
      minorVersion: u16(b, 36),
      majorVersion: u16(b, 38),
      chunkCount: u16(b, 42),
      flags,
      dirty: (flags & 1) !== 0,
      full: (flags & 2) !== 0,
      checksumValid,
    },
    diagnostics,
  };
}

export interface ChunkWalk {
  header: EvtxFileHeader | null;
  diagnostics: Diagnostic[];
  chunks: AsyncGenerator<RawChunk>;
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
    return { header, diagnostics, chunks: bufferChunks(source) };
  }
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(source, 'r');
  } catch (e) {
    throw new TaeError('INPUT_UNREADABLE', `cannot open ${source}: ${(e as NodeJS.ErrnoException).code ?? e}`, {
      cause: e,
    });
  }
  try {
    const head = Buffer.alloc(FILE_HEADER_SIZE + 8);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const { header, diagnostics } = parseFileHeader(
      head.subarray(0, Math.min(bytesRead, FILE_HEADER_SIZE)),
      bytesRead > FILE_HEADER_SIZE ? head.subarray(FILE_HEADER_SIZE, bytesRead) : null,
    );
    return { header, diagnostics, chunks: fileChunks(fh) };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

async function* bufferChunks(b: Uint8Array): AsyncGenerator<RawChunk> {
  let index = 0;
  for (let off = FILE_HEADER_SIZE; off < b.length; off += CHUNK_SIZE, index++) {
    yield { index, fileOffset: off, bytes: b.slice(off, Math.min(b.length, off + CHUNK_SIZE)) };
  }
}

async function* fileChunks(fh: Awaited<ReturnType<typeof open>>): AsyncGenerator<RawChunk> {
  try {
    let index = 0;
    for (let off = FILE_HEADER_SIZE; ; off += CHUNK_SIZE, index++) {
      const buf = Buffer.allocUnsafeSlow(CHUNK_SIZE);
      let filled = 0;
      while (filled < CHUNK_SIZE) {
        const { bytesRead } = await fh.read(buf, filled, CHUNK_SIZE - filled, off + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) return;
      yield { index, fileOffset: off, bytes: filled === CHUNK_SIZE ? buf : buf.subarray(0, filled) };
      if (filled < CHUNK_SIZE) return;
    }
  } finally {
    await fh.close();
  }
}
