/**
 * Where the event indexes of parse jobs live. An index is an opaque SQLite database (its
 * layout is the search module's): a public job's on a disk engine is a file
 * `<dataDir>/indexes/<job id>.sqlite`; every other one is a database image in the
 * `job_index_chunks` rows, sealed under the job key for a private job (AES-GCM segments, as
 * file contents are), so a private index is never on disk in clear. The `job_indexes` row
 * cascades from its job: deleting a job removes its index in the same transaction (a file
 * goes right after, or at the next open's sweep). Open indexes are cached, least recently
 * used first out.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { openSealedStream, SegmentSealer } from '../crypto/index.js';
import { TaeError } from '../errors/index.js';
import { ownerOnlyDir } from './owner-only.js';
import { openSqlite, openSqliteImage, type SqliteDatabase } from './sqlite.js';

const CHUNK_BYTES = 8 * 1024 * 1024;
const FILE_SUFFIX = '.sqlite';
/** Associated data of a sealed index: bound to its job. */
export const indexAad = (jobId: string) => `job-index:${jobId}`;

export interface IndexCacheLimits {
  /** Open indexes kept (default 8). */
  readonly handles: number;
  /** Bytes of in-memory images kept (default 1 GiB); one larger image is still opened. */
  readonly imageBytes: number;
}

interface Cached {
  readonly db: SqliteDatabase;
  readonly bytes: number;
}

interface IndexRow {
  kind: 'file' | 'image';
  sealed: number;
  plain_bytes: number;
}

export class IndexStore {
  private readonly cache = new Map<string, Cached>();
  private readonly s;

  constructor(
    private readonly db: SqliteDatabase,
    /** `<dataDir>/indexes`, or null for an engine in memory. */
    private readonly dir: string | null,
    private readonly limits: IndexCacheLimits = { handles: 8, imageBytes: 1024 ** 3 },
  ) {
    if (dir !== null) ownerOnlyDir(dir);
    this.s = {
      row: db.prepare<[string], IndexRow>(
        'SELECT kind, sealed, plain_bytes FROM job_indexes WHERE job_id = ?',
      ),
      jobExists: db.prepare<[string], { x: number }>('SELECT 1 AS x FROM jobs WHERE id = ?'),
      drop: db.prepare('DELETE FROM job_indexes WHERE job_id = ?'),
      put: db.prepare(
        'INSERT INTO job_indexes (job_id, kind, sealed, plain_bytes, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      chunk: db.prepare('INSERT INTO job_index_chunks (job_id, seq, body) VALUES (?, ?, ?)'),
      chunks: db.prepare<[string], { body: Buffer }>(
        'SELECT body FROM job_index_chunks WHERE job_id = ? ORDER BY seq',
      ),
      fileRows: db.prepare<[], { job_id: string }>(`SELECT job_id FROM job_indexes WHERE kind = 'file'`),
    };
  }

  /**
   * Where to build a job's index: a fresh file path on a disk engine for a public job, else
   * null (build in memory). Whatever an earlier run of the job left is removed first.
   */
  buildPath(jobId: string, visibility: 'public' | 'private'): string | null {
    this.remove(jobId);
    if (this.dir === null || visibility === 'private') return null;
    return join(this.dir, `${jobId}.${randomUUID()}.build`);
  }

  /** Makes a built index file the job's; false (and the file removed) when the job is gone. */
  commitFile(jobId: string, builtPath: string): boolean {
    const final = this.filePath(jobId);
    const fd = openSync(builtPath, 'r');
    try {
      fchmodSync(fd, 0o600); // built by SQLite with the umask's mode, inside the 0700 indexes/
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(builtPath, final);
    this.syncDir();
    const ok = this.db.transaction(() => {
      if (this.s.jobExists.get(jobId) === undefined) return false;
      this.s.drop.run(jobId);
      this.s.put.run(jobId, 'file', 0, 0, Date.now());
      return true;
    })();
    if (!ok) rmSync(final, { force: true });
    return ok;
  }

  /** Stores a built in-memory index (its serialized image), sealed when `key` is given. */
  commitImage(jobId: string, image: Buffer, key: Buffer | null): boolean {
    const pieces: Buffer[] = [];
    if (key === null) {
      for (let at = 0; at < image.length; at += CHUNK_BYTES)
        pieces.push(image.subarray(at, at + CHUNK_BYTES));
    } else {
      const sealer = new SegmentSealer(key, indexAad(jobId));
      let pending: Buffer[] = [sealer.header()];
      let size = pending[0]!.length;
      const take = (b: Buffer) => {
        pending.push(b);
        size += b.length;
        if (size >= CHUNK_BYTES) {
          pieces.push(Buffer.concat(pending, size));
          pending = [];
          size = 0;
        }
      };
      for (let at = 0; at < image.length; at += CHUNK_BYTES)
        for (const seg of sealer.push(image.subarray(at, at + CHUNK_BYTES))) take(seg);
      take(sealer.finish());
      if (size > 0) pieces.push(Buffer.concat(pending, size));
    }
    return this.db.transaction(() => {
      if (this.s.jobExists.get(jobId) === undefined) return false;
      this.s.drop.run(jobId);
      this.s.put.run(jobId, 'image', key === null ? 0 : 1, image.length, Date.now());
      for (const [i, p] of pieces.entries()) this.s.chunk.run(jobId, i, p);
      return true;
    })();
  }

  /** Whether the job has a committed index. */
  has(jobId: string): boolean {
    return this.s.row.get(jobId) !== undefined;
  }

  /**
   * Runs `use` on the job's open index (null when it has none). `key` opens a sealed one.
   * `use` runs synchronously, so no other request can close the handle under it.
   */
  async withIndex<T>(jobId: string, key: Buffer | null, use: (db: SqliteDatabase | null) => T): Promise<T> {
    const hit = this.cache.get(jobId);
    if (hit !== undefined) {
      this.cache.delete(jobId); // re-inserted: most recently used last
      this.cache.set(jobId, hit);
      return use(hit.db);
    }
    const row = this.s.row.get(jobId);
    if (row === undefined) return use(null);
    let cached: Cached;
    if (row.kind === 'file') {
      if (!existsSync(this.filePath(jobId))) return use(null); // removed behind our back
      const db = openSqlite(this.filePath(jobId));
      db.pragma('query_only = ON');
      cached = { db, bytes: 0 };
    } else {
      const image = await this.image(jobId, row, key);
      const db = openSqliteImage(image); // SQLite keeps its own copy
      if (row.sealed === 1) image.fill(0);
      db.pragma('temp_store = MEMORY'); // a private index's sorts stay in memory too
      db.pragma('query_only = ON');
      cached = { db, bytes: image.length };
    }
    const raced = this.cache.get(jobId); // another request opened it meanwhile
    if (raced !== undefined) {
      cached.db.close();
      return use(raced.db);
    }
    this.cache.set(jobId, cached);
    this.evict(jobId);
    return use(cached.db);
  }

  /** Removes a job's index (a re-run starts again; a deleted job's rows already cascaded). */
  remove(jobId: string): void {
    this.closeCached(jobId);
    this.s.drop.run(jobId);
    if (this.dir === null) return;
    rmSync(this.filePath(jobId), { force: true });
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(`${jobId}.`) && !name.endsWith(FILE_SUFFIX))
        rmSync(join(this.dir, name), { force: true });
    }
  }

  /** At open: removes unfinished builds and index files no job row holds; returns how many. */
  sweep(): number {
    if (this.dir === null) return 0;
    const kept = new Set(this.s.fileRows.all().map((r) => `${r.job_id}${FILE_SUFFIX}`));
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      if (kept.has(name)) continue;
      rmSync(join(this.dir, name), { force: true });
      removed++;
    }
    return removed;
  }

  close(): void {
    for (const id of [...this.cache.keys()]) this.closeCached(id);
  }

  private async image(jobId: string, row: IndexRow, key: Buffer | null): Promise<Buffer> {
    const chunks = this.s.chunks.all(jobId).map((c) => c.body);
    if (row.sealed === 0) return Buffer.concat(chunks);
    if (key === null)
      throw new TaeError('FORBIDDEN', `the index of job ${jobId} is sealed: its key is needed`);
    return openSealedStream(key, indexAad(jobId), row.plain_bytes, fromArray(chunks));
  }

  private evict(keep: string): void {
    let bytes = 0;
    for (const c of this.cache.values()) bytes += c.bytes;
    for (const [id, c] of this.cache) {
      if (this.cache.size <= this.limits.handles && bytes <= this.limits.imageBytes) break;
      if (id === keep) continue;
      bytes -= c.bytes;
      this.closeCached(id);
    }
  }

  private closeCached(jobId: string): void {
    const c = this.cache.get(jobId);
    if (c === undefined) return;
    this.cache.delete(jobId);
    c.db.close();
  }

  private filePath(jobId: string): string {
    return join(this.dir!, `${jobId}${FILE_SUFFIX}`);
  }

  private syncDir(): void {
    const fd = openSync(this.dir!, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

async function* fromArray(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  yield* chunks;
}
