/**
 * The rule texts a cache entry is keyed by, in parts: rule files, the rule library's texts, or
 * texts a caller holds. A part may know its digest without reading its texts (its files' stats,
 * the library's content hashes): a warm run then reads none. Its texts are read only for a
 * miss, and the entry is then keyed by the texts actually read, never by what was known.
 */
import { createHash } from 'node:crypto';
import { ruleCacheStats } from './files.js';
import { cacheIdentity } from './identity.js';

export interface ReadPart {
  readonly sources: readonly string[];
  readonly texts: readonly string[];
  readonly digest: string;
}

export interface TextPart {
  /** In the key, so that a file and a library text of the same name never share a digest. */
  readonly kind: 'files' | 'library' | 'texts';
  /** The names its rules load under, in order. */
  readonly sources: readonly string[];
  /** The digest of its texts when known without reading them. */
  readonly digest: string | undefined;
  /** Its texts and their digest (a library's sources as read: it may have changed since). */
  read(): ReadPart;
  /** Told that its texts were read and had `digest` (a stat index keeps it). */
  learn?(digest: string): void;
}

export interface RuleText {
  readonly source: string;
  readonly text: string;
}

export function digestOfTexts(sources: readonly string[], texts: readonly string[]): string {
  const h = createHash('sha256');
  for (let i = 0; i < texts.length; i++) {
    const source = sources[i]!;
    const text = texts[i]!;
    h.update(`${source.length}:${source}${text.length}:`).update(text);
  }
  return h.digest('hex');
}

/** Texts already in memory. */
export function textsPart(texts: readonly RuleText[]): TextPart {
  const sources = texts.map((t) => t.source);
  const all = texts.map((t) => t.text);
  const read: ReadPart = { sources, texts: all, digest: digestOfTexts(sources, all) };
  return { kind: 'texts', sources, digest: read.digest, read: () => read };
}

/** The entry's key: every part's kind, size and digest. */
export function entryKey(parts: readonly { kind: string; count: number; digest: string }[]): string {
  const h = createHash('sha256').update(cacheIdentity());
  for (const p of parts) h.update(`${p.kind}:${p.count}:${p.digest}\0`);
  return h.digest('hex');
}

export interface LibraryContent {
  readonly source: string;
  /** The library's content hash of the file (SHA-256 of its bytes, which its text is read from). */
  readonly hash: string;
  readonly text: string;
}

function digestOfHashes(rows: readonly LibraryContent[]): string {
  const h = createHash('sha256');
  for (const r of rows) h.update(`${r.source.length}:${r.source}${r.hash}\n`);
  return h.digest('hex');
}

/**
 * The rule library's texts, keyed by its content hashes (`contents(hash, text)`: one row gives
 * both, so a key never outlives its text). `read` queries again, with the texts: the library
 * may have changed since `hashes` were taken, and the entry is keyed by what was read.
 */
export function libraryPart(
  hashes: readonly LibraryContent[],
  read: () => readonly LibraryContent[],
): TextPart {
  return {
    kind: 'library',
    sources: hashes.map((r) => r.source),
    digest: digestOfHashes(hashes),
    read() {
      const rows = read();
      ruleCacheStats.read += rows.length;
      return {
        sources: rows.map((r) => r.source),
        texts: rows.map((r) => r.text),
        digest: digestOfHashes(rows),
      };
    },
  };
}
