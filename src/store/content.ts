/**
 * File contents in and out of the blob store. Private contents are sealed segment by segment
 * as they arrive (see crypto/segments.ts), so their plaintext exists only in memory, one
 * segment at a time; reading them back verifies every segment before any byte is returned.
 */
import { AAD, openSealedStream, SealedReader, SegmentSealer } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import type { BlobStore } from './blobs.js';

export type UploadData = Uint8Array | AsyncIterable<Uint8Array>;

export interface WriteContentOptions {
  readonly id: string;
  readonly data: UploadData;
  /** The per-file data key for a private file; null stores the bytes as they are. */
  readonly dataKey: Buffer | null;
  /** More plaintext bytes than this fails with TOO_LARGE. */
  readonly maxBytes: number;
  /** Epoch ms by which the data must have arrived, else TIMEOUT. */
  readonly deadline: number;
}

async function* chunksOf(data: UploadData): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) yield data;
  else yield* data;
}

/** Reads `data` into a new blob (not yet committed); returns the writer and the plaintext size. */
export async function writeContent(blobs: BlobStore, o: WriteContentOptions) {
  const writer = await blobs.begin();
  const sealer = o.dataKey === null ? null : new SegmentSealer(o.dataKey, AAD.fileContent(o.id));
  let size = 0;
  const it = chunksOf(o.data)[Symbol.asyncIterator]();
  try {
    if (sealer !== null) await writer.write(sealer.header());
    for (;;) {
      const next = await withDeadline(it.next(), o.deadline);
      if (next.done) break;
      const chunk = next.value;
      if (!(chunk instanceof Uint8Array)) throw new TaeError('INVALID_ARGUMENT', 'file data must be bytes');
      size += chunk.byteLength;
      if (size > o.maxBytes) {
        throw new TaeError('TOO_LARGE', `file exceeds ${o.maxBytes} bytes`, {
          context: { limit: o.maxBytes },
        });
      }
      if (sealer === null) await writer.write(chunk);
      else for (const segment of sealer.push(chunk)) await writer.write(segment);
    }
    if (sealer !== null) await writer.write(sealer.finish());
    return { writer, size };
  } catch (e) {
    it.return?.(undefined).catch(() => {}); // not awaited: a stalled source would hold it forever
    await writer.abort();
    throw e;
  }
}

function withDeadline<T>(p: Promise<T>, deadline: number): Promise<T> {
  const ms = deadline - Date.now();
  if (ms <= 0) return Promise.reject(new TaeError('TIMEOUT', 'upload took longer than allowed'));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TaeError('TIMEOUT', 'upload took longer than allowed')), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** The whole plaintext of a stored file; `dataKey` for a private one. */
export async function readContent(
  blobs: BlobStore,
  file: { readonly id: string; readonly size: number },
  dataKey: Buffer | null,
): Promise<Buffer> {
  if (dataKey !== null)
    return openSealedStream(dataKey, AAD.fileContent(file.id), file.size, blobs.read(file.id));
  const out = Buffer.allocUnsafe(file.size);
  let at = 0;
  for await (const c of blobs.read(file.id)) {
    if (at + c.byteLength > file.size) throw new TaeError('INPUT_UNREADABLE', `file ${file.id} grew on disk`);
    out.set(c, at);
    at += c.byteLength;
  }
  if (at !== file.size)
    throw new TaeError('INPUT_UNREADABLE', `file ${file.id} is shorter on disk than recorded`);
  return out;
}

/** A stored file's plaintext read at offsets (the shape of the parse module's EvtxReader). */
export interface ContentReader {
  read(into: Uint8Array, offset: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens a stored file for reads at offsets: a private one is authenticated whole first, then
 * decrypted a segment at a time as it is read (one segment of plaintext in memory); a public
 * one is read in place. Nothing is held whole.
 */
export async function openContent(
  blobs: BlobStore,
  file: { readonly id: string; readonly size: number },
  dataKey: Buffer | null,
): Promise<ContentReader> {
  const handle = await blobs.openAt(file.id);
  try {
    if (dataKey === null) {
      if (handle.size !== file.size)
        throw new TaeError(
          'INPUT_UNREADABLE',
          `file ${file.id} is ${handle.size} bytes on disk, not ${file.size}`,
        );
      return { read: (into, offset) => handle.readAt(into, offset), close: once(() => handle.close()) };
    }
    const sealed = await SealedReader.open(
      dataKey,
      AAD.fileContent(file.id),
      file.size,
      handle.size,
      (into, at) => handle.readAt(into, at),
    );
    try {
      await sealed.verifyAll();
    } catch (e) {
      sealed.close();
      throw e;
    }
    return {
      read: (into, offset) => sealed.read(into, offset),
      close: once(async () => {
        sealed.close();
        await handle.close();
      }),
    };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

function once(f: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= f();
    return done;
  };
}
