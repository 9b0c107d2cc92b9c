/**
 * The index cache of `tae search FILES`: the event index of a set of files kept between runs,
 * so a second search of the same files opens an index, as a job's search does, instead of
 * decoding every file again (593 attack samples: 2 s a search before, see README Performance).
 *
 * - Keyed by content: each file's SHA-256 and its name in the index, in order, with the
 *   engine's version, the index format and whether Sigma rules were matched. A changed byte
 *   is another entry; an entry is never trusted to be current by a file's date.
 * - Encrypted: the index file by SQLite3MultipleCiphers and its side file (the Error insights
 *   of files that did not decode) by AES-256-GCM, under a key derived from the same digests
 *   by another hash than the entry's name. Reading an entry takes the files it indexes: a copy
 *   of the cache without them (a backup, a shared home) reveals nothing of the events.
 * - Bounded and evictable as the rule cache: owner-only, written whole by a rename, the
 *   oldest used out past 1 GiB (`TAE_SEARCH_CACHE_MB` sets the bound; 0 turns it off); an
 *   entry that fails to open or decrypt is removed and built again.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ErrorInsight } from '../insights/index.js';
import { INDEX_FORMAT, indexFileNames } from '../library/index.js';
import { evict } from '../rules/index.js';
import { packageVersion } from '../version/index.js';
import { ruleCacheDir } from './rule-cache.js';

const DEFAULT_MAX_MB = 1024;
const ENTRY = /^search-[0-9a-f]{64}\.(sqlite|meta)$/;
const META_FORMAT = 1;

export interface CacheEntry {
  readonly index: string;
  readonly meta: string;
  /** The index's key (32 bytes). */
  readonly key: Buffer;
  readonly dir: string;
  readonly maxBytes: number;
}

/** The bound in bytes, or 0 when the cache is off. */
export function searchCacheBytes(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const mb = env.TAE_SEARCH_CACHE_MB;
  return mb !== undefined && /^\d{1,7}$/.test(mb) ? Number(mb) * 2 ** 20 : DEFAULT_MAX_MB * 2 ** 20;
}

/**
 * SHA-256 of a file's content, read 1 MiB at a time; undefined when it cannot be read or is
 * not a regular file. Opened without blocking and checked before any read: a FIFO would wait
 * for a writer and a device never end (the build then refuses them, naming them).
 */
function fileDigest(path: string, buffer: Buffer): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return undefined;
    const hash = createHash('sha256');
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
    return hash.digest('hex');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The entry of these files, or undefined when one cannot be read (the build then reports it). */
export function cacheEntry(
  files: readonly string[],
  sigma: boolean,
  maxBytes: number,
): CacheEntry | undefined {
  const buffer = Buffer.allocUnsafe(1 << 20);
  const names = indexFileNames(files);
  const set = createHash('sha256').update(
    `tae ${packageVersion()} search-index ${INDEX_FORMAT} sigma=${sigma}\0`,
  );
  for (const [i, f] of files.entries()) {
    const digest = fileDigest(f, buffer);
    if (digest === undefined) return undefined;
    set.update(`${names[i]}\0${digest}\0`);
  }
  const content = set.digest();
  const id = createHash('sha256').update('name\0').update(content).digest('hex');
  const key = createHash('sha256').update('key\0').update(content).digest();
  const dir = join(ruleCacheDir(), 'search');
  return {
    index: join(dir, `search-${id}.sqlite`),
    meta: join(dir, `search-${id}.meta`),
    key,
    dir,
    maxBytes,
  };
}

export interface CachedMeta {
  readonly name: string;
  readonly errors: readonly ErrorInsight[];
}

/** The side file's content, or undefined when it is missing, foreign or not of the shape written. */
export function readMeta(entry: CacheEntry): CachedMeta | undefined {
  try {
    const bytes = readFileSync(entry.meta);
    const decipher = createDecipheriv('aes-256-gcm', entry.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    const meta = JSON.parse(text) as { format?: unknown; name?: unknown; errors?: unknown };
    if (meta.format !== META_FORMAT || typeof meta.name !== 'string' || !Array.isArray(meta.errors))
      return undefined;
    const errors = meta.errors.filter(
      (e): e is ErrorInsight => typeof (e as ErrorInsight | null)?.Error?.message === 'string',
    );
    return errors.length === meta.errors.length ? { name: meta.name, errors } : undefined;
  } catch {
    return undefined;
  }
}

/** Marks an entry as just used, so eviction takes older ones first. */
export function touch(entry: CacheEntry): void {
  const now = new Date();
  try {
    utimesSync(entry.meta, now, now);
    utimesSync(entry.index, now, now);
  } catch {}
}

/** What killed runs left half written (a run writes its entry within seconds). */
function sweepTemporaries(dir: string): void {
  const before = Date.now() - 3_600_000;
  for (const name of readdirSync(dir))
    if (name.endsWith('.tmp') && name.startsWith('search-')) {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (st !== undefined && st.mtimeMs < before) rmSync(path, { force: true });
    }
}

export function forget(entry: CacheEntry): void {
  rmSync(entry.index, { force: true });
  rmSync(entry.meta, { force: true });
}

/**
 * Keeps the index built at `built` (closed) with its meta; best effort: a cache that cannot be
 * written (read-only, full disk, over the bound) costs the next run a build, nothing else.
 */
export function keep(entry: CacheEntry, built: string, meta: CachedMeta): boolean {
  const tmp = (file: string) => `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const [metaTmp, indexTmp] = [tmp(entry.meta), tmp(entry.index)];
  try {
    if (statSync(built).size > entry.maxBytes) return false;
    mkdirSync(entry.dir, { recursive: true, mode: 0o700 });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', entry.key, iv);
    const body = Buffer.concat([
      cipher.update(JSON.stringify({ format: META_FORMAT, ...meta }), 'utf8'),
      cipher.final(),
    ]);
    writeFileSync(metaTmp, Buffer.concat([iv, cipher.getAuthTag(), body]), { mode: 0o600, flag: 'wx' });
    try {
      renameSync(built, indexTmp);
    } catch {
      copyFileSync(built, indexTmp); // the build's directory is on another disk
    }
    renameSync(metaTmp, entry.meta);
    renameSync(indexTmp, entry.index);
    evict(entry.dir, entry.maxBytes, ENTRY);
    sweepTemporaries(entry.dir);
    return true;
  } catch {
    for (const f of [metaTmp, indexTmp]) rmSync(f, { force: true });
    return false;
  }
}
