/**
 * Compressed streams (gzip, raw deflate, zlib), inflated with a size cap. A stream that inflates
 * past the cap is cut: the longest input prefix whose output fits is inflated again with a sync
 * flush (a prefix of a deflate stream yields a prefix of its output), so a bomb still shows what
 * it starts with, and no more than the cap is ever allocated.
 */
import { constants, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

export type Compression = 'gzip' | 'deflate' | 'zlib';

export type Inflated =
  | { readonly kind: 'ok'; readonly bytes: Buffer; readonly truncated: boolean }
  | { readonly kind: 'failed'; readonly message: string };

const INFLATERS: Readonly<Record<Compression, (b: Uint8Array, o: ZlibOptions) => Buffer>> = {
  gzip: gunzipSync,
  deflate: inflateRawSync,
  zlib: inflateSync,
};

/** The compression a buffer announces by its magic bytes (raw deflate has none: see `hinted`). */
export function compressionOf(bytes: Uint8Array): Compression | null {
  if (bytes.length >= 18 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8) return 'gzip';
  const cmf = bytes[0]!;
  const flg = bytes[1]!;
  if (bytes.length >= 6 && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0)
    return 'zlib';
  return null;
}

const tooLarge = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';

export function inflate(kind: Compression, input: Uint8Array, maxBytes: number): Inflated {
  const run = INFLATERS[kind];
  try {
    return { kind: 'ok', bytes: run(input, { maxOutputLength: maxBytes }), truncated: false };
  } catch (e) {
    if (!tooLarge(e)) return { kind: 'failed', message: (e as Error).message };
  }
  // Over the cap: halve the input until its output fits (each try stops at the cap).
  const flush = { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH };
  for (let n = input.length >> 1; n > 0; n >>= 1) {
    try {
      return { kind: 'ok', bytes: run(input.subarray(0, n), flush), truncated: true };
    } catch (e) {
      if (!tooLarge(e)) return { kind: 'failed', message: (e as Error).message };
    }
  }
  return { kind: 'ok', bytes: Buffer.alloc(0), truncated: true };
}
