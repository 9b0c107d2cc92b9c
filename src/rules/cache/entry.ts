/**
 * One entry of the parse cache on disk (`sigma-<key>.bin`): the format, the key, the texts'
 * parse as sigma's `encodeParsed` bytes (decode workers load them as they are), and the
 * documents known to compile. An entry is local but not trusted: anything not of the exact
 * shape written (another version, a truncated or foreign file) is refused, and rebuilt.
 */
import { join } from 'node:path';
import { decodeParsed, type ParsedRuleText } from '../../sigma/index.js';
import { Corrupt, RULE_CACHE_FORMAT, readEntry, write } from './files.js';

/** Documents known to compile, per text, under one salt (the placeholders they were built with). */
export interface Trust {
  readonly salt: string;
  readonly docs: readonly (readonly number[])[];
}

export interface Entry {
  readonly parsed: ParsedRuleText[];
  /** The parse as read (a hit), or undefined until encoded (a miss). */
  readonly bytes: Uint8Array | undefined;
  readonly trust: Trust | undefined;
}

const isIndex = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function trustOf(v: unknown, texts: number): Trust | undefined {
  if (v === undefined) return undefined;
  const t = v as Partial<Trust> | null;
  if (t === null || typeof t !== 'object' || typeof t.salt !== 'string' || !Array.isArray(t.docs))
    throw new Corrupt('trust');
  if (t.docs.length !== texts || !t.docs.every((d) => Array.isArray(d) && d.every(isIndex)))
    throw new Corrupt('trust');
  return { salt: t.salt, docs: t.docs };
}

function entryOf(raw: unknown, key: string, sources: readonly string[]): Entry {
  const e = raw as { format?: unknown; key?: unknown; parsed?: unknown; trust?: unknown } | null;
  if (e === null || typeof e !== 'object' || e.format !== RULE_CACHE_FORMAT || e.key !== key)
    throw new Corrupt('head');
  if (!(e.parsed instanceof Uint8Array)) throw new Corrupt('parsed');
  const parsed = decodeParsed(e.parsed, sources);
  return { parsed, bytes: e.parsed, trust: trustOf(e.trust, sources.length) };
}

export const entryFile = (dir: string, key: string): string => join(dir, `sigma-${key}.bin`);

/** The entry for `key` whose texts load under `sources`; undefined when there is none or it is refused. */
export const findEntry = (dir: string, key: string, sources: readonly string[]): Entry | undefined =>
  readEntry(entryFile(dir, key), (raw) => entryOf(raw, key, sources));

export function writeEntry(
  dir: string,
  key: string,
  bytes: Uint8Array,
  trust: Trust | undefined,
  maxBytes: number,
): void {
  write(dir, entryFile(dir, key), key, { parsed: bytes, trust }, maxBytes);
}
