/**
 * Streaming encryption of file contents: AES-256-GCM over 1 MiB segments (the STREAM
 * construction). Layout: header `TAEF | version 1 | nonce prefix (7) | segment size u32 BE`,
 * then each segment's ciphertext followed by its 16-byte tag. A segment's nonce is the prefix,
 * its index (u32 BE) and a last-segment flag, so reordering, truncation and extension all fail
 * authentication. Plaintext is held one segment at a time on the way in, and is only ever
 * released after its segment's tag has been verified on the way out.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TaeError } from '../errors/index.js';
import { decipherSegment, NOT_AUTHENTIC } from './decipher.js';

const MAGIC = Buffer.from('TAEF', 'latin1');
const VERSION = 1;
const PREFIX = 7;
const TAG = 16;
export const SEGMENT_HEADER_BYTES = 16;
export const DEFAULT_SEGMENT_BYTES = 1024 * 1024;

function nonce(prefix: Uint8Array, index: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.set(prefix, 0);
  n.writeUInt32BE(index, PREFIX);
  n[11] = last ? 1 : 0;
  return n;
}

/** Size of the sealed form of `plainBytes` bytes (the empty file still has one segment). */
export function sealedSize(plainBytes: number, segmentBytes = DEFAULT_SEGMENT_BYTES): number {
  return SEGMENT_HEADER_BYTES + plainBytes + TAG * Math.max(1, Math.ceil(plainBytes / segmentBytes));
}

export class SegmentSealer {
  private readonly prefix = randomBytes(PREFIX);
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;

  constructor(
    private readonly key: Uint8Array,
    private readonly aad: string,
    private readonly segmentBytes = DEFAULT_SEGMENT_BYTES,
  ) {}

  header(): Buffer {
    const h = Buffer.alloc(SEGMENT_HEADER_BYTES);
    MAGIC.copy(h, 0);
    h[4] = VERSION;
    h.set(this.prefix, 5);
    h.writeUInt32BE(this.segmentBytes, 12);
    return h;
  }

  /** Takes plaintext; returns the sealed segments completed by it (a full segment is sealed
   * only once a later byte proves it is not the last). */
  push(chunk: Uint8Array): Buffer[] {
    this.pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.pendingBytes += chunk.byteLength;
    const out: Buffer[] = [];
    if (this.pendingBytes <= this.segmentBytes) return out;
    const all = Buffer.concat(this.pending, this.pendingBytes);
    let at = 0;
    while (all.length - at > this.segmentBytes) {
      out.push(this.sealSegment(all.subarray(at, at + this.segmentBytes), false));
      at += this.segmentBytes;
    }
    this.pending = [all.subarray(at)];
    this.pendingBytes = all.length - at;
    return out;
  }

  finish(): Buffer {
    const rest = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return this.sealSegment(rest, true);
  }

  private sealSegment(plain: Uint8Array, last: boolean): Buffer {
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce(this.prefix, this.index++, last));
    cipher.setAAD(Buffer.from(this.aad, 'utf8'));
    const body = cipher.update(plain);
    cipher.final();
    return Buffer.concat([body, cipher.getAuthTag()]);
  }
}

const corrupt = (aad: string, why: string, cause?: unknown) =>
  new TaeError('FORBIDDEN', `encrypted content does not open: ${why}`, { context: { aad }, cause });

/**
 * Decrypts a sealed stream whose plaintext is `plainBytes` long into one buffer, verifying
 * every segment before copying it out. A wrong key fails on the first segment.
 */
export async function openSealedStream(
  key: Uint8Array,
  aad: string,
  plainBytes: number,
  sealed: AsyncIterable<Uint8Array>,
): Promise<Buffer> {
  const reader = new ExactReader(sealed);
  const header = await reader.take(SEGMENT_HEADER_BYTES);
  if (header === null || !header.subarray(0, 4).equals(MAGIC) || header[4] !== VERSION) {
    throw corrupt(aad, 'unknown header');
  }
  const prefix = header.subarray(5, 12);
  const segmentBytes = header.readUInt32BE(12);
  if (segmentBytes === 0) throw corrupt(aad, 'bad segment size');
  const out = Buffer.allocUnsafe(plainBytes);
  const segments = Math.max(1, Math.ceil(plainBytes / segmentBytes));
  for (let i = 0; i < segments; i++) {
    const last = i === segments - 1;
    const len = last ? plainBytes - i * segmentBytes : segmentBytes;
    const seg = await reader.take(len + TAG);
    if (seg === null) throw corrupt(aad, 'truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, nonce(prefix, i, last));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(seg.subarray(len));
    const plain = decipher.update(seg.subarray(0, len));
    try {
      decipher.final();
    } catch (e) {
      release(plain);
      out.fill(0);
      throw corrupt(aad, `segment ${i} fails authentication`, e);
    }
    plain.copy(out, i * segmentBytes);
    release(plain);
  }
  if ((await reader.take(1)) !== null) throw corrupt(aad, 'trailing bytes');
  return out;
}

/** Reads ciphertext at a position: fills `into`, resolving to the count (short only at the end). */
export type ReadSealedAt = (into: Uint8Array, position: number) => Promise<number>;

/**
 * Random access to a sealed blob's plaintext, one segment in memory at a time: each segment is
 * read, its tag verified and only then copied out. The segment count comes from `plainBytes`
 * (recorded apart), so every segment's index and last flag are known: a truncated, extended
 * or reordered blob fails as `openSealedStream` does.
 */
export class SealedReader {
  private segmentBytes = 0;
  private prefix: Buffer = Buffer.alloc(0);
  private segments = 0;
  /** The last verified segment: reads are sequential, so each is decrypted once. */
  private cached = -1;
  private plain: Buffer = Buffer.alloc(0);
  private readonly aadBytes: Buffer;
  private closed = false;

  private constructor(
    private readonly key: Uint8Array,
    private readonly aad: string,
    readonly plainBytes: number,
    private readonly readAt: ReadSealedAt,
  ) {
    this.aadBytes = Buffer.from(aad, 'utf8');
  }

  /** Checks the header and the blob's length (`sealedBytes`) before anything is read. */
  static async open(
    key: Uint8Array,
    aad: string,
    plainBytes: number,
    sealedBytes: number,
    readAt: ReadSealedAt,
  ): Promise<SealedReader> {
    const r = new SealedReader(Buffer.from(key), aad, plainBytes, readAt); // its own copy, wiped at close
    const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
    const n = await readAt(header, 0);
    if (n < SEGMENT_HEADER_BYTES || !header.subarray(0, 4).equals(MAGIC) || header[4] !== VERSION)
      throw corrupt(aad, 'unknown header');
    r.prefix = Buffer.from(header.subarray(5, 12));
    r.segmentBytes = header.readUInt32BE(12);
    if (r.segmentBytes === 0 || r.segmentBytes > 64 * 1024 * 1024) throw corrupt(aad, 'bad segment size');
    if (sealedBytes !== sealedSize(plainBytes, r.segmentBytes))
      throw corrupt(
        aad,
        sealedBytes < sealedSize(plainBytes, r.segmentBytes) ? 'truncated' : 'trailing bytes',
      );
    r.segments = Math.max(1, Math.ceil(plainBytes / r.segmentBytes));
    return r;
  }

  /**
   * Authenticates every segment, in order, before any plaintext is used (one segment in memory
   * at a time): a tampered blob then fails as a whole, whatever part its reader would reach.
   */
  async verifyAll(): Promise<void> {
    for (let i = 0; i < this.segments; i++) await this.segment(i, false);
  }

  /** Fills `into` with plaintext from `offset`; resolves to the count (0 at the end). */
  async read(into: Uint8Array, offset: number): Promise<number> {
    let filled = 0;
    while (filled < into.length && offset + filled < this.plainBytes) {
      const at = offset + filled;
      const i = Math.floor(at / this.segmentBytes);
      const segment = await this.segment(i);
      const from = at - i * this.segmentBytes;
      const n = Math.min(into.length - filled, segment.length - from);
      into.set(segment.subarray(from, from + n), filled);
      filled += n;
    }
    return filled;
  }

  /** Wipes the plaintext this reader holds (and a segment still being deciphered, when it comes). */
  close(): void {
    this.closed = true;
    this.plain.fill(0);
    this.key.fill(0);
    this.cached = -1;
  }

  /** Segment `i`'s plaintext, verified; `keep: false` only verifies it (nothing is kept). */
  private async segment(i: number, keep = true): Promise<Buffer> {
    const last = i === this.segments - 1;
    const len = last ? this.plainBytes - i * this.segmentBytes : this.segmentBytes;
    if (this.cached === i) return this.plain.subarray(0, len);
    this.cached = -1;
    // A buffer of its own per segment: it moves to a decipher thread (decipher.ts), whose
    // plaintext moves back and is kept as it is until the next segment replaces it (wiped).
    const sealed = Buffer.allocUnsafeSlow(len + TAG);
    const n = await this.readAt(sealed, SEGMENT_HEADER_BYTES + i * (this.segmentBytes + TAG));
    if (n < sealed.length) throw corrupt(this.aad, 'truncated');
    let plain: ArrayBuffer | null;
    try {
      plain = await decipherSegment({
        key: this.key,
        iv: nonce(this.prefix, i, last),
        aad: this.aadBytes,
        sealed: sealed.buffer as ArrayBuffer,
        length: len,
        keep,
      });
    } catch (e) {
      if ((e as Error)?.message !== NOT_AUTHENTIC) throw e;
      throw corrupt(this.aad, `segment ${i} fails authentication`, e);
    }
    if (plain === null) return this.plain.subarray(0, 0);
    if (this.closed) {
      release(Buffer.from(plain));
      throw corrupt(this.aad, 'read after close');
    }
    release(this.plain);
    this.plain = Buffer.from(plain);
    this.cached = i;
    return this.plain.subarray(0, len);
  }
}

/**
 * Wipes a plaintext buffer `decipher.update` made and frees its memory now. Left to the
 * collector, a verification pass over a 238 MiB file piled up about 80 MiB of such buffers
 * (V8 collects them only under external-memory pressure), and a private 1 GB job's peak RSS
 * rose by as much. Only a buffer that owns its whole ArrayBuffer is detached (never a pooled one).
 */
function release(plain: Buffer): void {
  plain.fill(0);
  const ab = plain.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
  if (plain.byteOffset === 0 && ab.byteLength === plain.byteLength && ab.byteLength > 0) ab.transfer?.(0);
}

/** Reads exact-length pieces from a stream of arbitrary chunks. */
class ExactReader {
  private readonly it: AsyncIterator<Uint8Array>;
  private buf: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Uint8Array>) {
    this.it = source[Symbol.asyncIterator]();
  }

  async take(n: number): Promise<Buffer | null> {
    const parts: Buffer[] = [this.buf];
    let have = this.buf.length;
    while (have < n) {
      const next = await this.it.next();
      if (next.done) {
        this.buf = Buffer.concat(parts, have);
        return null;
      }
      const b = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      parts.push(b);
      have += b.length;
    }
    const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, have);
    this.buf = all.subarray(n);
    return all.subarray(0, n);
  }
}
