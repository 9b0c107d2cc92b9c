/**
 * Template definitions reused across chunks without re-parsing them. Every chunk carries
 * its own copy of the templates it uses, at its own offsets, with its own name offsets; a
 * definition whose bytes match an earlier one outside those chunk-dependent ranges (see
 * BinXmlParser.skips), whose names are inline in the same places and resolve to the same
 * strings, would parse to the same tree and fingerprint, so the earlier tree is reused.
 */

import type { TemplateNode } from './binxml.js';
import { u16, u32 } from './bytes.js';

export interface ParsedTemplate {
  readonly nodes: TemplateNode[];
  readonly key: number;
}

interface Entry extends ParsedTemplate {
  readonly dataSize: number;
  /** The definition's BinXML as parsed, with its `skips` ranges zeroed. */
  readonly bytes: Buffer;
  /** [from, to) pairs relative to the BinXML start, in order. */
  readonly skips: readonly number[];
  /** Per name: where its offset is stored (relative), whether it was inline, and the name. */
  readonly nameFields: readonly number[];
  readonly inline: readonly boolean[];
  readonly names: readonly string[];
}

/** Bounds: a flood of distinct (or huge) templates resets the cache instead of growing it. */
const MAX_ENTRIES = 4096;
const MAX_BYTES = 8 * 2 ** 20;
const buckets = new Map<number, Entry[]>();
let entries = 0;
let storedBytes = 0;

const bucketOf = (b: Uint8Array, offset: number, dataSize: number): number =>
  (u32(b, offset + 4) ^ Math.imul(u32(b, offset + 8), 31) ^ u32(b, offset + 16) ^ dataSize) >>> 0;

/** The earlier parse of an identical definition at `offset` in chunk `b`, if any. */
export function reusedTemplate(b: Uint8Array, offset: number, dataSize: number): ParsedTemplate | null {
  const list = buckets.get(bucketOf(b, offset, dataSize));
  if (list === undefined) return null;
  for (const e of list) if (e.dataSize === dataSize && matches(e, b, offset + 24)) return e;
  return null;
}

/** Where a candidate's bytes are copied and masked like an entry's, to be compared in one call. */
let scratch = Buffer.alloc(4096);

function matches(e: Entry, b: Uint8Array, start: number): boolean {
  const ref = e.bytes;
  const n = ref.length;
  if (start + n > b.length) return false;
  // Templates repeat in every chunk (about one a record in generated logs): a native compare
  // of the masked copy costs a fifth of comparing byte by byte between the skips.
  if (scratch.length < n) scratch = Buffer.alloc(Math.max(n, scratch.length * 2));
  scratch.set(b.subarray(start, start + n));
  mask(scratch, e.skips, n);
  if (ref.compare(scratch, 0, n, 0, n) !== 0) return false;
  for (let i = 0; i < e.names.length; i++) {
    const field = start + e.nameFields[i]!;
    const offset = u32(b, field);
    if ((offset === field + 4) !== e.inline[i]) return false;
    if (!nameIs(b, offset, e.names[i]!)) return false;
  }
  return true;
}

function nameIs(b: Uint8Array, offset: number, name: string): boolean {
  const n = name.length;
  if (offset + 8 + n * 2 > b.length || u16(b, offset + 6) !== n) return false;
  for (let i = 0; i < n; i++) if (u16(b, offset + 8 + i * 2) !== name.charCodeAt(i)) return false;
  return true;
}

/** Zeroes the `[from, to)` pairs of `skips` in the first `n` bytes of `bytes`. */
function mask(bytes: Uint8Array, skips: readonly number[], n: number): void {
  for (let i = 0; i < skips.length; i += 2) {
    const to = Math.min(skips[i + 1]!, n);
    for (let k = skips[i]!; k < to; k++) bytes[k] = 0;
  }
}

/** Remembers a definition just parsed from `b[start, end)` (its BinXML) for later chunks. */
export function rememberTemplate(
  b: Uint8Array,
  offset: number,
  dataSize: number,
  end: number,
  parsed: ParsedTemplate,
  found: {
    readonly skips: readonly number[];
    readonly nameFields: readonly number[];
    readonly names: readonly string[];
  },
): void {
  const start = offset + 24;
  const skips = found.skips.map((x) => x - start);
  // A copy: chunk buffers are reused (and Buffer.slice would share their memory).
  const bytes = Buffer.from(b.subarray(start, end));
  mask(bytes, skips, bytes.length);
  if (entries >= MAX_ENTRIES || storedBytes + (end - start) > MAX_BYTES) {
    buckets.clear();
    entries = 0;
    storedBytes = 0;
  }
  const entry: Entry = {
    ...parsed,
    dataSize,
    bytes,
    skips,
    nameFields: found.nameFields.map((x) => x - start),
    inline: found.nameFields.map((x) => u32(b, x) === x + 4),
    names: found.names,
  };
  const bucket = bucketOf(b, offset, dataSize);
  const list = buckets.get(bucket);
  if (list === undefined) buckets.set(bucket, [entry]);
  else list.push(entry);
  entries++;
  storedBytes += entry.bytes.length;
}

/** What the cache holds now (for tests of its bounds). */
export const templateCacheStats = (): { entries: number; bytes: number } => ({ entries, bytes: storedBytes });
