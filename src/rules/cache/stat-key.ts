/**
 * Rule files keyed by their stats: reading and hashing the 3,141 SigmaHQ files took a warm
 * `tae sigma` about 70 ms of its 450 ms load. A small file per list of paths (`files-<hash of
 * the paths>.bin`, rewritten as they change, so none pile up) keeps the hash of every file's
 * size, times, inode and device, and the digest of the texts they had then; the next run with
 * the same stats takes that digest without reading a text. Any write changes the file's ctime,
 * which no one can set back, so changed files miss and are read. Not when a write may share a
 * clock tick with the stat (git's "racily clean" files): stats are kept only when every file's
 * times are older than RACY_MS before they were taken.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { readRuleInput } from '../rule-file.js';
import { Corrupt, RULE_CACHE_FORMAT, readEntry, ruleCacheStats, write } from './files.js';
import { cacheIdentity } from './identity.js';
import { digestOfTexts, type TextPart } from './parts.js';

const RACY_MS = 5000;
const DIGEST = /^[0-9a-f]{64}$/;

export interface StatFile {
  readonly path: string;
  readonly stat: Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino' | 'dev'>;
}

function hashOf(files: readonly StatFile[], stats: boolean): string {
  const h = createHash('sha256').update(cacheIdentity());
  for (const { path, stat: s } of files)
    h.update(
      stats ? `${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.ino}\0${s.dev}\n` : `${path.length}:${path}\n`,
    );
  return h.digest('hex');
}

/** The digest kept for these stats, or undefined when it was kept for others. */
function digestOf(raw: unknown, key: string, stats: string): string | undefined {
  const e = raw as { format?: unknown; key?: unknown; stats?: unknown; digest?: unknown } | null;
  if (e === null || typeof e !== 'object' || e.format !== RULE_CACHE_FORMAT || e.key !== key)
    throw new Corrupt('head');
  if (typeof e.digest !== 'string' || !DIGEST.test(e.digest)) throw new Corrupt('digest');
  return e.stats === stats ? e.digest : undefined;
}

/**
 * Rule files read with `readRuleInput`; `statedAt` is when their stats were taken (before the
 * first). Without a cache directory nothing is looked up or kept.
 */
export function filesPart(
  files: readonly StatFile[],
  statedAt: number,
  dir: string | false,
  maxBytes: number,
): TextPart {
  const sources = files.map((f) => f.path);
  const key = dir === false ? undefined : hashOf(files, false);
  const stats = key === undefined ? '' : hashOf(files, true);
  const file = key === undefined ? '' : join(dir as string, `files-${key}.bin`);
  // No file: nothing to read, so the digest is known (a library-only run reads no file either).
  const known =
    files.length === 0
      ? digestOfTexts([], [])
      : key === undefined
        ? undefined
        : readEntry(file, (raw) => digestOf(raw, key, stats));
  return {
    kind: 'files',
    sources,
    digest: known,
    read() {
      ruleCacheStats.read += sources.length;
      const texts = sources.map((p) => readRuleInput(p, 'rule'));
      return { sources, texts, digest: digestOfTexts(sources, texts) };
    },
    learn(digest) {
      if (key === undefined || digest === known) return;
      const racy = (f: StatFile) => Math.max(f.stat.mtimeMs, f.stat.ctimeMs) >= statedAt - RACY_MS;
      if (!files.some(racy)) write(dir as string, file, key, { stats, digest }, maxBytes);
    },
  };
}
