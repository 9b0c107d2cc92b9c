/**
 * Where file contents live: one blob per file id, on disk under `<dataDir>/files/` or in
 * memory. A disk blob is written to `<dataDir>/tmp/`, fsynced, renamed into place and its
 * directory fsynced, so a crash leaves either the whole blob or a temp file that the next
 * open sweeps away. Private files arrive here already encrypted.
 */
import { randomUUID } from 'node:crypto';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ownerOnlyDir } from './owner-only.js';

export interface BlobWriter {
  write(chunk: Uint8Array): Promise<void>;
  /** Makes the blob durable under `id`. */
  commit(id: string): Promise<void>;
  /** Discards what was written (idempotent). */
  abort(): Promise<void>;
}

/** A committed blob opened for reads at positions. */
export interface BlobHandle {
  readonly size: number;
  /** Fills `into` from `position`; resolves to the count (short only at the end). */
  readAt(into: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface BlobStore {
  begin(): Promise<BlobWriter>;
  /** The file path of a committed blob, for reading it in place; null in memory. */
  pathOf(id: string): string | null;
  /** The blob's bytes as a stream of fresh (never reused) chunks. */
  read(id: string): AsyncIterable<Uint8Array>;
  /** The blob for reads at positions (a private file is decrypted from it segment by segment). */
  openAt(id: string): Promise<BlobHandle>;
  remove(id: string): Promise<void>;
  /** Ids of committed blobs. */
  list(): Promise<string[]>;
  /** Deletes unfinished writes left by a crash; returns how many. */
  sweepTemp(): Promise<number>;
}

const READ_CHUNK = 1024 * 1024;

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function diskBlobs(dataDir: string): Promise<BlobStore> {
  const filesDir = join(dataDir, 'files');
  const tmpDir = join(dataDir, 'tmp');
  ownerOnlyDir(filesDir);
  ownerOnlyDir(tmpDir);
  return {
    async begin() {
      const tmp = join(tmpDir, `${randomUUID()}.part`);
      const fh = await open(tmp, 'wx', 0o600); // the umask can only narrow 0600, and files/ is 0700
      let closed = false;
      const close = async () => {
        if (!closed) {
          closed = true;
          await fh.close();
        }
      };
      return {
        async write(chunk) {
          for (let at = 0; at < chunk.byteLength; ) {
            const { bytesWritten } = await fh.write(chunk, at, chunk.byteLength - at);
            if (bytesWritten === 0) throw new Error(`no progress writing ${tmp}`);
            at += bytesWritten;
          }
        },
        async commit(id) {
          await fh.sync();
          await close();
          await rename(tmp, join(filesDir, id));
          await fsyncDir(filesDir);
        },
        async abort() {
          await close().catch(() => {});
          await rm(tmp, { force: true });
        },
      };
    },
    pathOf: (id) => join(filesDir, id),
    async *read(id) {
      const fh = await open(join(filesDir, id), 'r');
      try {
        for (;;) {
          const buf = Buffer.allocUnsafe(READ_CHUNK);
          const { bytesRead } = await fh.read(buf, 0, READ_CHUNK, null);
          if (bytesRead === 0) return;
          yield buf.subarray(0, bytesRead);
        }
      } finally {
        await fh.close();
      }
    },
    async openAt(id) {
      const fh = await open(join(filesDir, id), 'r');
      try {
        const { size } = await fh.stat();
        return {
          size,
          async readAt(into, position) {
            let filled = 0;
            while (filled < into.length) {
              const { bytesRead } = await fh.read(into, filled, into.length - filled, position + filled);
              if (bytesRead === 0) break;
              filled += bytesRead;
            }
            return filled;
          },
          close: () => fh.close(),
        };
      } catch (e) {
        await fh.close();
        throw e;
      }
    },
    remove: (id) => rm(join(filesDir, id), { force: true }),
    list: async () => (await readdir(filesDir)).filter((n) => !n.startsWith('.')),
    async sweepTemp() {
      const names = await readdir(tmpDir);
      await Promise.all(names.map((n) => rm(join(tmpDir, n), { force: true })));
      return names.length;
    },
  };
}

export function memoryBlobs(): BlobStore {
  const blobs = new Map<string, Buffer>();
  return {
    async begin() {
      let parts: Buffer[] | null = [];
      return {
        async write(chunk) {
          parts?.push(Buffer.from(chunk));
        },
        async commit(id) {
          if (parts !== null) blobs.set(id, Buffer.concat(parts));
          parts = null;
        },
        async abort() {
          parts = null;
        },
      };
    },
    pathOf: () => null,
    async *read(id) {
      const b = blobs.get(id);
      if (b === undefined) throw Object.assign(new Error(`no blob ${id}`), { code: 'ENOENT' });
      for (let at = 0; at < b.length; at += READ_CHUNK) yield Buffer.from(b.subarray(at, at + READ_CHUNK));
    },
    async openAt(id) {
      const b = blobs.get(id);
      if (b === undefined) throw Object.assign(new Error(`no blob ${id}`), { code: 'ENOENT' });
      return {
        size: b.length,
        async readAt(into, position) {
          const part = b.subarray(Math.min(position, b.length), position + into.length);
          into.set(part);
          return part.length;
        },
        close: async () => {},
      };
    },
    async remove(id) {
      blobs.delete(id);
    },
    list: async () => [...blobs.keys()],
    sweepTemp: async () => 0,
  };
}
