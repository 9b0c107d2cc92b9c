/** The EVTX file header (4 KiB): version, flags, counts and checksum. */
import { TaeError } from '../errors/index.js';
import { u16, u32, u64 } from './bytes.js';
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

/**
 * The diagnostic for a file that ends after its header. A header that counts no chunks and
 * no records describes an empty log (a warning: nothing was lost); one that counts chunks or
 * gave out record ids says records existed and are gone (an error).
 */
export function noChunksDiagnostic(header: EvtxFileHeader | null): Diagnostic {
  const chunks = header?.chunkCount ?? 0;
  const records = header === null || header.nextRecordId <= 1n ? 0n : header.nextRecordId - 1n;
  const lost = chunks > 0 || records > 0n;
  const counted = [
    ...(chunks > 0 ? [`${chunks} chunk${chunks === 1 ? '' : 's'}`] : []),
    ...(records > 0n ? [`record ids up to ${records}`] : []),
  ].join(' and ');
  return {
    code: 'file.no_chunks',
    message: lost
      ? `file has no chunks, but its header counts ${counted}: the records are missing (truncated file?)`
      : 'file has no chunks (its header counts none: an empty log)',
    chunk: -1,
    offset: FILE_HEADER_SIZE,
    severity: lost ? 'error' : 'warning',
  };
}
