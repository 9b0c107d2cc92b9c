/**
 * Where the event indexes of parse jobs live: each is an opaque SQLite database (its layout is
 * the search module's) in a file `<indexes dir>/<job id>.sqlite`, owner-only. A private job's
 * file is encrypted page by page by SQLite3MultipleCiphers under a key derived from its job
 * key (see native/sqlite.ts), so it is written and searched through a bounded page cache and
 * never held whole in memory. An engine in memory keeps its indexes in a temporary directory
 * (open-store.ts) and encrypts every one, public ones under a random key of the open store.
 * The `job_indexes` row cascades from its job: deleting a job removes its row in the same
 * transaction, and the file right after (or at the next open's sweep). Open indexes are
 * cached, least recently used first out. Rows of kind 'image' (a sealed database image in
 * `job_index_chunks`, the layout before schema 3) become files on their first search
 * (legacy-index.ts).
 */
import { hkdfSync, randomUUID } from 'node:crypto';
import {
  chmodSync,
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
import { TaeError } from '../errors/index.js';
import { convertLegacyImage, type LegacyRow } from './legacy-index.js';
import { ownerOnlyDir } from './owner-only.js';
import { openSqlite, type SqliteDatabase } from './sqlite.js';

const FILE_SUFFIX = '.sqlite';
/** Associated data of a sealed index image (the layout before schema 3): bound to its job. */
export const indexAad = (jobId: string) => `job-index:${jobId}`;

/**
 * The key of a private job's index file: derived from the job key (HKDF-SHA256, bound to the
 * job), so the page cipher and the job's AES-GCM seals never share a key.
 */
export const indexFileKey = (jobId: string, ikm: Uint8Array): Buffer =>
  Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), `tae job index file:${jobId}`, 32));

export interface IndexCacheLimits {
  /** Open indexes kept (default 8). */
  readonly handles: number;
  /** Page cache of each open index, KiB (default 8 MiB): searches read at most this much into memory. */
  readonly cacheKib: number;
}

/** Where a job's index is built, and the key that encrypts it (null: a plain file). */
export interface IndexTarget {
  readonly path: string;
  readonly key: Buffer | null;
}

interface IndexRow extends LegacyRow {
  kind: 'file' | 'image';
}

export class IndexStore {
  private readonly cache = new Map<string, SqliteDatabase>();
  /** Conversions of legacy images under way, so two searches convert once. */
  private readonly converting = new Map<string, Promise<void>>();
  private readonly s;

  constructor(
    private readonly db: SqliteDatabase,
    /** `<dataDir>/indexes`, or the temporary directory of an engine in memory. */
    private readonly dir: string,
    /** An engine in memory: the key of its public indexes (private ones use their job's). */
    private readonly storeKey: Buffer | null,
    private readonly limits: IndexCacheLimits = { handles: 8, cacheKib: 8 * 1024 },
  ) {
    ownerOnlyDir(dir);
    this.s = {
      row: db.prepare<[string], IndexRow>(
        'SELECT kind, sealed, plain_bytes FROM job_indexes WHERE job_id = ?',
      ),
      jobExists: db.prepare<[string], { x: number }>('SELECT 1 AS x FROM jobs WHERE id = ?'),
      drop: db.prepare('DELETE FROM job_indexes WHERE job_id = ?'),
      put: db.prepare(
        'INSERT INTO job_indexes (job_id, kind, sealed, plain_bytes, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      chunks: db.prepare<[string], { body: Buffer }>(
        'SELECT body FROM job_index_chunks WHERE job_id = ? ORDER BY seq',
      ),
      fileRows: db.prepare<[], { job_id: string }>(`SELECT job_id FROM job_indexes WHERE kind = 'file'`),
    };
  }

  /**
   * Where to build a job's index: a fresh file, encrypted under a key derived from `jobKey`
   * (a private job) or the store's key (an engine in memory). Whatever an earlier run of the
   * job left is removed first.
   */
  buildTarget(jobId: string, jobKey: Buffer | null): IndexTarget {
    this.remove(jobId);
    return this.freshTarget(jobId, jobKey);
  }

  /** Makes a built index file the job's; false (and the file removed) when the job is gone. */
  commit(jobId: string, target: IndexTarget, sealed: boolean): boolean {
    const final = this.filePath(jobId);
    const fd = openSync(target.path, 'r');
    try {
      fchmodSync(fd, 0o600); // built by SQLite with the umask's mode, inside the 0700 indexes/
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(target.path, 0o600);
    renameSync(target.path, final);
    this.syncDir();
    const ok = this.db.transaction(() => {
      if (this.s.jobExists.get(jobId) === undefined) return false;
      this.s.drop.run(jobId); // a legacy image's chunks cascade (zeroed: secure_delete)
      this.s.put.run(jobId, 'file', sealed ? 1 : 0, 0, Date.now());
      return true;
    })();
    if (!ok) rmSync(final, { force: true });
    return ok;
  }

  /** Whether the job has a committed index. */
  has(jobId: string): boolean {
    return this.s.row.get(jobId) !== undefined;
  }

  /**
   * Runs `use` on the job's open index (null when it has none). `jobKey` opens a private one.
   * `use` runs synchronously, so no other request can close the handle under it.
   */
  async withIndex<T>(
    jobId: string,
    jobKey: Buffer | null,
    use: (db: SqliteDatabase | null) => T,
  ): Promise<T> {
    const hit = this.cache.get(jobId);
    if (hit !== undefined) {
      this.cache.delete(jobId); // re-inserted: most recently used last
      this.cache.set(jobId, hit);
      return use(hit);
    }
    let row = this.s.row.get(jobId);
    if (row?.kind === 'image') {
      await this.convert(jobId, row, jobKey);
      row = this.s.row.get(jobId);
    }
    if (row === undefined || !existsSync(this.filePath(jobId))) return use(null); // none, or removed
    const key = this.fileKey(jobId, this.sealedKey(jobId, row, jobKey));
    const db = openSqlite(this.filePath(jobId), { readonly: true, ...(key === null ? {} : { key }) });
    key?.fill(0);
    // An encrypted one keeps temporary storage in memory (openSqlite sets it: temporary files
    // are not encrypted); a plain (public) one may spill sorts of an older index to TMPDIR.
    db.pragma(`cache_size = ${-Math.trunc(this.limits.cacheKib)}`);
    db.pragma('query_only = ON');
    const raced = this.cache.get(jobId); // another request opened it meanwhile
    if (raced !== undefined) {
      db.close();
      return use(raced);
    }
    this.cache.set(jobId, db);
    this.evict(jobId);
    return use(db);
  }

  /** Removes a job's index (a re-run starts again; a deleted job's rows already cascaded). */
  remove(jobId: string): void {
    this.closeCached(jobId);
    this.s.drop.run(jobId);
    rmSync(this.filePath(jobId), { force: true });
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(`${jobId}.`)) rmSync(join(this.dir, name), { force: true });
    }
  }

  /** At open: removes unfinished builds and index files no job row holds; returns how many. */
  sweep(): number {
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

  private freshTarget(jobId: string, jobKey: Buffer | null): IndexTarget {
    return { path: join(this.dir, `${jobId}.${randomUUID()}.build`), key: this.fileKey(jobId, jobKey) };
  }

  /** The job key when the row says the index is sealed under it. */
  private sealedKey(jobId: string, row: LegacyRow, jobKey: Buffer | null): Buffer | null {
    if (row.sealed === 0) return null;
    if (jobKey === null)
      throw new TaeError('FORBIDDEN', `the index of job ${jobId} is encrypted: its key is needed`);
    return jobKey;
  }

  /** The file key: from the job key, else from the store's key (in memory), else none. */
  private fileKey(jobId: string, jobKey: Buffer | null): Buffer | null {
    const ikm = jobKey ?? this.storeKey;
    return ikm === null ? null : indexFileKey(jobId, ikm);
  }

  private async convert(jobId: string, row: IndexRow, jobKey: Buffer | null): Promise<void> {
    const running = this.converting.get(jobId);
    if (running !== undefined) return running;
    const sealedKey = this.sealedKey(jobId, row, jobKey);
    const work = (async () => {
      const target = this.freshTarget(jobId, sealedKey);
      try {
        const chunks = this.s.chunks.all(jobId).map((c) => c.body);
        await convertLegacyImage({ jobId, row, chunks, sealedKey, aad: indexAad(jobId) }, target);
        this.commit(jobId, target, row.sealed === 1);
      } catch (e) {
        rmSync(target.path, { force: true });
        throw e;
      } finally {
        target.key?.fill(0);
      }
    })();
    this.converting.set(jobId, work);
    try {
      await work;
    } finally {
      this.converting.delete(jobId);
    }
  }

  private evict(keep: string): void {
    for (const id of this.cache.keys()) {
      if (this.cache.size <= this.limits.handles) break;
      if (id !== keep) this.closeCached(id);
    }
  }

  private closeCached(jobId: string): void {
    const db = this.cache.get(jobId);
    if (db === undefined) return;
    this.cache.delete(jobId);
    db.close();
  }

  private filePath(jobId: string): string {
    return join(this.dir, `${jobId}${FILE_SUFFIX}`);
  }

  private syncDir(): void {
    const fd = openSync(this.dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
