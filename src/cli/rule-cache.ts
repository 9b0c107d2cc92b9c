/**
 * The on-disk cache of parsed Sigma rule texts. Measured on the 3,141 SigmaHQ rules: YAML
 * parsing is about a third of loading and is plain data; building detections and mapping log
 * sources make closures, which cannot be stored. So an entry also records which documents
 * compiled without error (with which placeholders): the next run builds those deferred
 * (sigma's `trusted` load option), compiling each matcher only when an event first reaches it.
 * A second file per entry and salt keeps what the run's rule set learnt: the literal anchors
 * and scanners its plans took (about 0.25 s of a SigmaHQ run on the hayabusa samples), written
 * after the run.
 *
 * One entry per rule selection, keyed by a SHA-256 of the engine version, this format and
 * every (source, text) in order; `$TAE_CACHE_DIR`, else `$XDG_CACHE_HOME/threat-analysis-engine`
 * (~/.cache by default). Files are owner-only, written to a temporary name and renamed, the
 * directory kept under MAX_CACHE_BYTES by removing the oldest. An entry is local but not
 * trusted: anything not of the exact shape written (another version, a truncated or foreign
 * file) is ignored and rebuilt.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { debugLine } from '../errors/index.js';
import {
  type ParsedRuleText,
  parseRuleText,
  type RuleDiagnostic,
  YamlNumber,
  type YamlValue,
} from '../sigma/index.js';
import {
  Corrupt,
  evict,
  MAX_CACHE_BYTES,
  RULE_CACHE_FORMAT,
  readEntry,
  ruleCacheStats,
  write,
} from './cache-files.js';
import { type Learnt, learntStore } from './rule-learnt.js';
import { packageVersion } from './version.js';

export type { Learnt };
export { RULE_CACHE_FORMAT, ruleCacheStats };

const MAX_DEPTH = 128;

export interface RuleText {
  readonly source: string;
  readonly text: string;
}

export function ruleCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.TAE_CACHE_DIR) return env.TAE_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'threat-analysis-engine');
}

function keyOf(texts: readonly RuleText[]): string {
  const h = createHash('sha256');
  h.update(`tae ${packageVersion()} sigma-parse ${RULE_CACHE_FORMAT}\0`);
  for (const t of texts) h.update(`${t.source.length}:${t.source}${t.text.length}:`).update(t.text);
  return h.digest('hex');
}

/**
 * The cached value back to parser output, in place (a copy would double the allocation of
 * every rule a warm run loads); throws Corrupt on anything the parser cannot make.
 */
function revive(v: unknown, depth: number): YamlValue {
  if (depth > MAX_DEPTH) throw new Corrupt('too deep');
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i], depth + 1);
    return v as YamlValue[];
  }
  if (v instanceof Map) {
    for (const [k, x] of v) {
      if (typeof k !== 'string') throw new Corrupt('map key');
      const y = revive(x, depth + 1);
      if (y !== x) v.set(k, y);
    }
    return v as Map<string, YamlValue>;
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const { text, value } = v as { text?: unknown; value?: unknown };
    if (typeof text === 'string' && typeof value === 'number' && Object.keys(v).length === 2)
      return new YamlNumber(text, value);
  }
  throw new Corrupt('value');
}

function diagnosticOf(v: unknown, source: string): RuleDiagnostic {
  const d = v as Partial<RuleDiagnostic> | null;
  if (d === null || typeof d !== 'object' || typeof d.code !== 'string' || typeof d.message !== 'string')
    throw new Corrupt('diagnostic');
  if (d.source !== source || (d.document !== undefined && typeof d.document !== 'number'))
    throw new Corrupt('diagnostic');
  return d as RuleDiagnostic;
}

/** Documents known to compile, per text, under one salt (the placeholders they were built with). */
interface Trust {
  readonly salt: string;
  readonly docs: readonly (readonly number[])[];
}

interface Entry {
  readonly parsed: ParsedRuleText[];
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

function entryOf(raw: unknown, key: string, texts: readonly RuleText[]): Entry {
  const e = raw as { format?: unknown; key?: unknown; parsed?: unknown; trust?: unknown } | null;
  if (e === null || typeof e !== 'object' || e.format !== RULE_CACHE_FORMAT || e.key !== key)
    throw new Corrupt('head');
  if (!Array.isArray(e.parsed) || e.parsed.length !== texts.length) throw new Corrupt('length');
  const parsed = e.parsed.map((p: { documents?: unknown; diagnostics?: unknown } | null, i) => {
    const source = texts[i]!.source;
    if (p === null || !Array.isArray(p.documents) || !Array.isArray(p.diagnostics))
      throw new Corrupt('entry');
    return {
      documents: p.documents.map((d) => revive(d, 0)),
      diagnostics: p.diagnostics.map((d) => diagnosticOf(d, source)),
    };
  });
  return { parsed, trust: trustOf(e.trust, texts.length) };
}

export interface CachedParse {
  readonly parsed: readonly ParsedRuleText[];
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

/** Each text's parse, from the cache when an entry for exactly these texts is there. */
export function parseCached(
  texts: readonly RuleText[],
  dir: string | false,
  maxBytes = MAX_CACHE_BYTES,
): CachedParse {
  const parseAll = () => {
    ruleCacheStats.parsed += texts.length;
    return texts.map((t) => parseRuleText(t.text, t.source));
  };
  if (dir === false)
    return {
      parsed: parseAll(),
      trusted: () => undefined,
      remember: () => {},
      learnt: () => ({ anchors: new Map(), scanners: new Map() }),
      rememberLearnt: () => {},
    };
  const key = keyOf(texts);
  const file = join(dir, `sigma-${key}.bin`);
  let entry = readEntry(file, (raw) => entryOf(raw, key, texts));
  let unwritten = entry === undefined;
  if (entry !== undefined) {
    ruleCacheStats.hits++;
    debugLine(`sigma rule cache hit ${file} (${texts.length} files)`);
  } else {
    ruleCacheStats.misses++;
    entry = { parsed: parseAll(), trust: undefined };
    debugLine(`sigma rule cache miss (${texts.length} files)`);
  }
  const { parsed } = entry;
  let trust = entry.trust;
  return {
    parsed,
    trusted: (salt) => (trust?.salt === salt ? trust.docs.map((d) => new Set(d)) : undefined),
    remember(salt, docs) {
      const before = trust?.salt === salt ? trust.docs : undefined;
      const grew =
        docs !== undefined && (before === undefined || docs.some((d, i) => d.length > before[i]!.length));
      if (grew) trust = { salt, docs };
      if (!grew && !unwritten) return;
      write(dir, file, key, { parsed, trust }, maxBytes);
      unwritten = false;
      debugLine(
        `sigma rule cache: wrote ${file}, ${trust?.docs.reduce((n, d) => n + d.length, 0) ?? 0} documents known to compile`,
      );
    },
    ...learntStore(dir, key, maxBytes),
  };
}

/**
 * Where `tae yara` keeps YARA-X's serialized rules (src/yara/cache.ts checks each entry's magic
 * and sha256): created owner-only here and trimmed to the same bound before a run; undefined
 * when it cannot be made (the run then compiles as before).
 */
export function yaraCacheDir(base: string = ruleCacheDir(), maxBytes = MAX_CACHE_BYTES): string | undefined {
  const dir = join(base, 'yara');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    evict(dir, maxBytes, /^[0-9a-f]{64}\.yarx$/);
    return dir;
  } catch {
    return undefined;
  }
}
