/**
 * Where the CLI keeps its rule caches: `$TAE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/threat-analysis-engine` (~/.cache by default). The Sigma parse cache itself
 * is the rule library's (src/rules/cache/), shared with the engine's jobs.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { evict, MAX_CACHE_BYTES } from '../rules/index.js';

export function ruleCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.TAE_CACHE_DIR) return env.TAE_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'threat-analysis-engine');
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
