/**
 * Compiled rule sets by content hash: an in-memory LRU bounded by entries and bytes, and,
 * only when the caller names a directory, serialized rules persisted there. A disk entry
 * carries its warnings and a sha256 of its bytes, so a truncated or foreign file is ignored
 * (and rewritten) instead of reaching the scanner.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { YaraDiagnostic } from './diagnostics.js';

/** A compiled rule set, ready to scan with; produced by YaraEngine.compile. */
export interface CompiledRuleSet {
  /** sha256 of the sources, options and binary version it was compiled from. */
  readonly hash: string;
  /** yara-x serialized rules over a SharedArrayBuffer: workers read them without a copy. */
  readonly serialized: Uint8Array;
  readonly warnings: readonly YaraDiagnostic[];
  /** Errors of sources left out under `invalidSources: 'skip'`. */
  readonly skipped: readonly YaraDiagnostic[];
}

export type CachedCompile =
  | { readonly kind: 'compiled'; readonly rules: CompiledRuleSet }
  | {
      readonly kind: 'failed';
      readonly errors: readonly YaraDiagnostic[];
      readonly warnings: readonly YaraDiagnostic[];
    };

const sizeOf = (c: CachedCompile): number =>
  c.kind === 'compiled'
    ? c.rules.serialized.length
    : [...c.errors, ...c.warnings].reduce((n, d) => n + d.text.length, 0);

export class RuleSetLru {
  private readonly entries = new Map<string, CachedCompile>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(hash: string): CachedCompile | undefined {
    const hit = this.entries.get(hash);
    if (hit !== undefined) {
      this.entries.delete(hash);
      this.entries.set(hash, hit);
    }
    return hit;
  }

  set(hash: string, value: CachedCompile): void {
    const old = this.entries.get(hash);
    if (old !== undefined) this.bytes -= sizeOf(old);
    this.entries.delete(hash);
    this.entries.set(hash, value);
    this.bytes += sizeOf(value);
    for (const [key, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      if (key === hash) continue; // the newest entry stays, even when alone it exceeds the budget
      this.entries.delete(key);
      this.bytes -= sizeOf(v);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

const MAGIC = Buffer.from('TAEYARC1', 'latin1');

interface DiskHeader {
  readonly sha256: string;
  readonly warnings: readonly YaraDiagnostic[];
  readonly skipped: readonly YaraDiagnostic[];
}

const fileOf = (dir: string, hash: string) => join(dir, `${hash}.yarx`);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** A persisted rule set, or null when absent, unreadable or corrupt. */
export async function readPersisted(dir: string, hash: string): Promise<CompiledRuleSet | null> {
  let file: Buffer;
  try {
    file = await readFile(fileOf(dir, hash));
  } catch {
    return null;
  }
  try {
    if (file.length < 12 || !file.subarray(0, 8).equals(MAGIC)) return null;
    const headerLength = file.readUInt32LE(8);
    const header = JSON.parse(file.subarray(12, 12 + headerLength).toString('utf8')) as DiskHeader;
    const blob = file.subarray(12 + headerLength);
    if (sha256(blob) !== header.sha256) return null;
    const serialized = new Uint8Array(new SharedArrayBuffer(blob.length));
    serialized.set(blob);
    return { hash, serialized, warnings: header.warnings, skipped: header.skipped };
  } catch {
    return null;
  }
}

/** Writes atomically (temporary file, then rename), so readers never see half a file. */
export async function persist(dir: string, rules: CompiledRuleSet): Promise<void> {
  const header: DiskHeader = {
    sha256: sha256(rules.serialized),
    warnings: rules.warnings,
    skipped: rules.skipped,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const target = fileOf(dir, rules.hash);
  const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(temporary, Buffer.concat([MAGIC, length, json, rules.serialized]), { mode: 0o600 });
    await rename(temporary, target);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
}
