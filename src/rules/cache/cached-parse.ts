/**
 * The on-disk cache of parsed Sigma rule texts. YAML parsing is about a third of a cold load
 * and plain data; building detections and mapping log sources make closures, which cannot be
 * stored. So an entry also records which documents compiled without error (with which
 * placeholders): the next run builds those deferred (sigma's `trusted` load option), compiling
 * each matcher only when an event first reaches it. The parse is kept as sigma's
 * `encodeParsed` bytes, which decode workers load as they are (they parse no YAML either;
 * entry.ts).
 *
 * One entry per rule selection, keyed by the engine version, this format and the digest of
 * every (source, text) in order (parts.ts); a part that knows its digest without its texts
 * lets a warm run read none. Files are owner-only, written to a temporary name and renamed, the
 * directory kept under MAX_CACHE_BYTES by removing the oldest (files.ts). An entry is local but
 * not trusted: anything not of the exact shape written (another version, a truncated or
 * foreign file) is ignored and rebuilt.
 */
import { debugLine } from '../../errors/index.js';
import { decodeParsed, encodeParsed, type ParsedRuleText, parseRuleText } from '../../sigma/index.js';
import { type Entry, entryFile, findEntry, type Trust, writeEntry } from './entry.js';
import { MAX_CACHE_BYTES, ruleCacheStats } from './files.js';
import { type Learnt, learntStore } from './learnt.js';
import { entryKey, type ReadPart, type TextPart } from './parts.js';

export interface CachedParse {
  /** The names the texts' rules load under, in order. */
  readonly sources: readonly string[];
  /**
   * The texts' parse, for building their rules. The cache keeps it no longer than it needs it to
   * make its bytes: the engine keeps its cache (its workers load the bytes), and SigmaHQ's
   * documents were 4 MB more of its heap when they stayed. Asked again, it is decoded again.
   */
  takeParsed(): readonly ParsedRuleText[];
  /** The parse as `encodeParsed` bytes (the entry's own on a hit): what workers load. */
  bytes(): Uint8Array;
  /** Per text, the documents an earlier run compiled without error with this salt; or none. */
  trusted(salt: string): readonly ReadonlySet<number>[] | undefined;
  /**
   * Records the documents that compiled without error (none known: `undefined`). Writes the
   * entry when it was parsed now or its trust grew: a cold run writes once.
   */
  remember(salt: string, docs: readonly (readonly number[])[] | undefined): void;
  /** What a run with this salt's rule set took (anchors, scanners); empty maps when none is kept. */
  learnt(salt: string): Learnt;
  /** Keeps a run's anchors and scanners for the next (written only when they add to what was read). */
  rememberLearnt(salt: string, taken: Learnt): void;
}

function parseAll(reads: readonly ReadPart[]): ParsedRuleText[] {
  const out: ParsedRuleText[] = [];
  for (const r of reads)
    for (let i = 0; i < r.texts.length; i++) out.push(parseRuleText(r.texts[i]!, r.sources[i]!));
  ruleCacheStats.parsed += out.length;
  return out;
}

const sourcesOf = (parts: readonly { sources: readonly string[] }[]) => parts.flatMap((p) => p.sources);
const keyOf = (
  kinds: readonly TextPart[],
  parts: readonly { sources: readonly string[]; digest: string }[],
) => entryKey(parts.map((p, i) => ({ kind: kinds[i]!.kind, count: p.sources.length, digest: p.digest })));

/** The entry for these parts' texts: looked up by the digests they know, else by their texts. */
function lookUp(parts: readonly TextPart[], dir: string | false) {
  const find = (key: string, sources: readonly string[]) =>
    dir === false ? undefined : findEntry(dir, key, sources);
  let known: string | undefined;
  if (parts.every((p) => p.digest !== undefined)) {
    known = keyOf(parts, parts as readonly { sources: readonly string[]; digest: string }[]);
    const sources = sourcesOf(parts);
    const entry = find(known, sources);
    if (entry !== undefined) return { key: known, sources, entry, reads: undefined };
  }
  const reads = parts.map((p) => p.read());
  const key = keyOf(parts, reads);
  const sources = sourcesOf(reads);
  if (dir !== false) for (const [i, r] of reads.entries()) parts[i]!.learn?.(r.digest);
  return { key, sources, entry: key === known ? undefined : find(key, sources), reads };
}

/** Each text's parse, from the cache when an entry for exactly these texts is there. */
export function parseCached(
  parts: readonly TextPart[],
  dir: string | false,
  maxBytes = MAX_CACHE_BYTES,
): CachedParse {
  const { key, sources, reads, ...found } = lookUp(parts, dir);
  const file = entryFile(dir || '', key);
  let entry: Entry | undefined = found.entry;
  let unwritten = entry === undefined;
  if (entry !== undefined) {
    ruleCacheStats.hits++;
    debugLine(`sigma rule cache hit ${file} (${sources.length} files)`);
  } else {
    const parsed = parseAll(reads!);
    entry = { parsed, bytes: undefined, trust: undefined };
    if (dir !== false) {
      ruleCacheStats.misses++;
      debugLine(`sigma rule cache miss (${sources.length} files)`);
    }
  }
  let parsed: readonly ParsedRuleText[] | undefined = entry.parsed;
  let taken = false;
  let bytes = entry.bytes;
  let trust: Trust | undefined = entry.trust;
  const bytesNow = () => {
    if (bytes === undefined) {
      bytes = encodeParsed(parsed!);
      if (taken) parsed = undefined;
    }
    return bytes;
  };
  return {
    sources,
    takeParsed() {
      const out = parsed ?? decodeParsed(bytes!, sources);
      taken = true;
      if (bytes !== undefined) parsed = undefined;
      return out;
    },
    bytes: bytesNow,
    trusted: (salt) => (trust?.salt === salt ? trust.docs.map((d) => new Set(d)) : undefined),
    remember(salt, docs) {
      if (dir === false) return;
      const before = trust?.salt === salt ? trust.docs : undefined;
      const grew =
        docs !== undefined && (before === undefined || docs.some((d, i) => d.length > before[i]!.length));
      if (grew) trust = { salt, docs };
      if (!grew && !unwritten) return;
      writeEntry(dir, key, bytesNow(), trust, maxBytes);
      unwritten = false;
      debugLine(
        `sigma rule cache: wrote ${file}, ${trust?.docs.reduce((n, d) => n + d.length, 0) ?? 0} documents known to compile`,
      );
    },
    ...learntStore(dir, key, maxBytes),
  };
}
