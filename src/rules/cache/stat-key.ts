/**
 * Rule files keyed by their stats: reading and hashing the 3,141 SigmaHQ files took a warm
 * `tae sigma` about 70 ms of its 450 ms load. A small file (`files-<hash>.bin`, the hash of every
 * path with its size, times, inode and device) keeps the digest of the texts those stats had;
 * the next run with the same stats takes that digest without reading a text. Any write changes
 * the file's ctime, which no one can set back, so changed files miss and are read. Not when a
 * write may share a clock tick with the stat (git's "racily clean" files): stats are kept only
 * when every file's times are older than RACY_MS before they were taken.
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

function statKeyOf(files: readonly StatFile[]): string {
  const h = createHash('sha256').update(cacheIdentity());
  for (const { path, stat: s } of files)
    h.update(`${path.length}:${path}\0${s.size}\0${s.mtimeMs}\0${s.ctimeMs}\0${s.ino}\0${s.dev}\n`);
  return h.digest('hex');
}

function digestOf(raw: unknown, key: string): string {
  const e = raw as { format?: unknown; key?: unknown; digest?: unknown } | null;
  if (e === null || typeof e !== 'object' || e.format !== RULE_CACHE_FORMAT || e.key !== key)
    throw new Corrupt('head');
  if (typeof e.digest !== 'string' || !DIGEST.test(e.digest)) throw new Corrupt('digest');
  return e.digest;
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
  const key = dir === false ? undefined : statKeyOf(files);
  const file = key === undefined ? '' : join(dir as string, `files-${key}.bin`);
  // No file: nothing to read, so the digest is known (a library-only run reads no file either).
  const known =
    files.length === 0
      ? digestOfTexts([], [])
      : key === undefined
        ? undefined
        : readEntry(file, (raw) => digestOf(raw, key));
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
      if (!files.some(racy)) write(dir as string, file, key, { digest }, maxBytes);
    },
  };
}
