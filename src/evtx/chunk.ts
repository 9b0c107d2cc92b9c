/**
 * One 64 KiB chunk: header, checksums and its records. Chunks are self-contained (their
 * own name and template caches), which makes them the unit of parallel work.
 */

import { BinXmlError, BinXmlParser } from './binxml.js';
import { u32 } from './bytes.js';
import { CHUNK_SIZE, ChunkContext } from './chunk-context.js';
import { zlib_crc32 } from './crc32.js';
import type { Diagnostic } from './diagnostics.js';
import { instantiate, type TemplateInstance } from './template.js';
import { filetimeAt, type WindowsTime } from './time.js';
import type { XmlNode } from './tree.js';
import { ValueError } from './values.js';

const CHUNK_MAGIC = [0x45, 0x6c, 0x66, 0x43, 0x68, 0x6e, 0x6b, 0x00]; // "ElfChnk\0"
const HEADER_SIZE = 512;

export interface EvtxRecord {
  readonly recordId: number;
  readonly chunk: number;
  /** Absolute file offset of the record header. */
  readonly offset: number;
  /** The record header's written time (not TimeCreated). */
  readonly written: WindowsTime | null;
  /** The record as a template and its values (the usual case), else null. */
  readonly instance: TemplateInstance | null;
  /** Top-level nodes when the record is not a single template instance, else null. */
  readonly nodes: XmlNode[] | null;
}

/** Formats the header's written time only when asked: renderers use TimeCreated instead. */
class ChunkRecord implements EvtxRecord {
  constructor(
    readonly recordId: number,
    readonly chunk: number,
    readonly offset: number,
    private readonly bytes: Uint8Array,
    private readonly writtenAt: number,
    readonly instance: TemplateInstance | null,
    readonly nodes: XmlNode[] | null,
  ) {}

  get written(): WindowsTime | null {
    return filetimeAt(this.bytes, this.writtenAt);
  }
}

/** The record's tree (normally one `Event` element), instantiated on demand. */
export function recordNodes(r: EvtxRecord): XmlNode[] {
  if (r.nodes !== null) return r.nodes;
  return r.instance === null ? [] : instantiate(r.instance.def.nodes, r.instance.substitutions);
}

export interface ChunkResult {
  readonly records: EvtxRecord[];
  readonly diagnostics: Diagnostic[];
}

export interface DecodeChunkOptions {
  readonly chunkIndex: number;
  /** Absolute file offset of the chunk's first byte. */
  readonly fileOffset: number;
  /** Skip records of a chunk whose checksums fail (default false: decode and warn). */
  readonly validateChecksums?: boolean;
}

export function isChunkMagic(b: Uint8Array, o = 0): boolean {
  for (let i = 0; i < 8; i++) if (b[o + i] !== CHUNK_MAGIC[i]) return false;
  return true;
}

export function isAllZero(b: Uint8Array, from = 0, to = b.length): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}

export function decodeChunk(bytes: Uint8Array, options: DecodeChunkOptions): ChunkResult {
  const records: EvtxRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  const { chunkIndex, fileOffset } = options;
  const diag = (d: Omit<Diagnostic, 'chunk' | 'severity'> & { severity?: Diagnostic['severity'] }) =>
    diagnostics.push({ severity: 'error', chunk: chunkIndex, ...d });

  if (bytes.length < HEADER_SIZE) {
    diag({ code: 'file.truncated_chunk', message: `chunk of ${bytes.length} bytes`, offset: fileOffset });
    return { records, diagnostics };
  }
  if (!isChunkMagic(bytes)) {
    if (!isAllZero(bytes, 0, HEADER_SIZE)) {
      diag({ code: 'chunk.bad_magic', message: 'chunk header magic is not ElfChnk', offset: fileOffset });
    }
    return { records, diagnostics };
  }
  const headerCrc = u32(bytes, 124);
  const computedHeaderCrc = zlib_crc32(bytes.subarray(128, HEADER_SIZE), zlib_crc32(bytes.subarray(0, 120)));
  let freeSpace = u32(bytes, 48);
  if (freeSpace < HEADER_SIZE || freeSpace > bytes.length) {
    diag({
      code: 'chunk.bad_free_space_offset',
      message: `free space offset ${freeSpace} outside the chunk; reading to its end`,
      offset: fileOffset + 48,
      severity: 'warning',
    });
    freeSpace = bytes.length;
  }
  const badHeader = headerCrc !== computedHeaderCrc;
  const badData = !badHeader && u32(bytes, 52) !== zlib_crc32(bytes.subarray(HEADER_SIZE, freeSpace));
  if (badHeader || badData) {
    diag({
      code: badHeader ? 'chunk.bad_header_crc' : 'chunk.bad_data_crc',
      message: badHeader ? 'chunk header checksum mismatch' : 'event records checksum mismatch',
      offset: fileOffset,
      severity: options.validateChecksums ? 'error' : 'warning',
    });
    if (options.validateChecksums) return { records, diagnostics };
  }

  const ctx = new ChunkContext(bytes.length > CHUNK_SIZE ? bytes.subarray(0, CHUNK_SIZE) : bytes);
  let off = HEADER_SIZE;
  while (off + 24 <= freeSpace) {
    if (bytes[off] !== 0x2a || bytes[off + 1] !== 0x2a || bytes[off + 2] !== 0 || bytes[off + 3] !== 0) {
      if (!isAllZero(bytes, off, Math.min(off + 24, freeSpace))) {
        diag({ code: 'record.bad_magic', message: 'record magic is not 2a2a0000', offset: fileOffset + off });
      }
      break;
    }
    const size = u32(bytes, off + 4);
    const recordId = u32(bytes, off + 8) + u32(bytes, off + 12) * 0x100000000;
    if (size < 28 || off + size > ctx.bytes.length) {
      diag({
        code: 'record.bad_size',
        message: `record size ${size} is invalid`,
        offset: fileOffset + off,
        recordNumber: recordId,
      });
      break;
    }
    try {
      const parser = new BinXmlParser(ctx, off + 24, off + size - 4, false);
      const { instance, nodes } = parser.parseRecord();
      records.push(new ChunkRecord(recordId, chunkIndex, fileOffset + off, bytes, off + 16, instance, nodes));
    } catch (e) {
      if (!(e instanceof BinXmlError || e instanceof ValueError)) throw e;
      diag({
        code: e instanceof ValueError ? 'record.bad_value' : 'record.bad_binxml',
        message: e.message,
        offset: fileOffset + (e instanceof BinXmlError ? e.offset : off),
        recordNumber: recordId,
      });
    }
    off += size;
  }
  return { records, diagnostics };
}
