/**
 * What the rule cache's files share (entry.ts, learnt.ts, stat-key.ts): the format, the bounds,
 * atomic owner-only writes, eviction of the oldest entries, and the counters.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';

/**
 * Bump when the cached shape or the parser's output changes, or the shape of what a rule set
 * learns (its Anchors and ScannerData, which learnt.ts keeps as the rule set gives them), or
 * how anchors are read off (kept anchors stay correct, but a variant newly anchored would not be).
 */
export const RULE_CACHE_FORMAT = 5;
/** The directory's bound; the SigmaHQ rules take about 3 MB, and 16 MB more for what a run learnt. */
export const MAX_CACHE_BYTES = 256 << 20;
export const MAX_ENTRY_BYTES = 256 << 20;
/**
 * What the cache did, for `TAE_DEBUG` and the tests: entries hit and missed, texts parsed and
 * read (a warm run keyed by its files' stats reads none), entries rejected.
 */
export const ruleCacheStats = { hits: 0, misses: 0, parsed: 0, read: 0, rejected: 0 };

/** A cached value not of the shape written: the entry is ignored and rebuilt. */
export class Corrupt extends Error {}

export function evict(
  dir: string,
  maxBytes: number,
  entry = /^(sigma|learnt|scanners|files|anchors)-[0-9a-f]{64}\.bin$/,
): void {
  const files = readdirSync(dir)
    .filter((n) => entry.test(n))
    .map((n) => ({ path: join(dir, n), st: statSync(join(dir, n), { throwIfNoEntry: false }) }))
    .filter((f) => f.st !== undefined)
    .sort((a, b) => b.st!.mtimeMs - a.st!.mtimeMs);
  let total = 0;
  for (const f of files) {
    total += f.st!.size;
    if (total > maxBytes) rmSync(f.path, { force: true });
  }
}

/**
 * The entry in `file` as `decode` makes it; undefined when there is none (or it is over the
 * bound), or when it cannot be decoded (counted as rejected: it is rebuilt).
 */
export function readEntry<T>(file: string, decode: (raw: unknown) => T): T | undefined {
  let bytes: Buffer;
  try {
    if (statSync(file).size > MAX_ENTRY_BYTES) return undefined;
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    return decode(deserialize(bytes));
  } catch {
    ruleCacheStats.rejected++;
    return undefined;
  }
}

/** Best effort: a cache that cannot be written costs the next run its parse, nothing else. */
export function write(dir: string, file: string, key: string, entry: object, maxBytes: number): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const bytes = serialize({ format: RULE_CACHE_FORMAT, key, ...entry });
    if (bytes.length > MAX_ENTRY_BYTES) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
    evict(dir, maxBytes);
  } catch {
    // Read-only or full disk: run uncached, leaving no part of the entry (no name evicts it).
    try {
      rmSync(tmp, { force: true });
    } catch {}
  }
}
