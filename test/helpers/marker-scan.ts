/**
 * Looking for plaintext on disk: every file under some directories, searched for a marker in
 * UTF-8 and in UTF-16LE (the EVTX string encoding). Files that vanish mid-scan (a build's
 * staging file, a journal) are skipped: a scan may run while the engine works.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, recursively ([] when `dir` is gone). */
export function allFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((x) => (x.isDirectory() ? allFiles(join(dir, x.name)) : [join(dir, x.name)]));
}

/** The byte forms of `markers` a leak would show: UTF-8 and UTF-16LE of each. */
export const markerNeedles = (...markers: string[]): Buffer[] =>
  markers.flatMap((m) => [Buffer.from(m, 'utf8'), Buffer.from(m, 'utf16le')]);

/** The files under `dirs` that hold any of `needles`. */
export function filesContaining(dirs: readonly string[], needles: readonly Buffer[]): string[] {
  return dirs.flatMap(allFiles).filter((f) => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(f);
    } catch {
      return false; // removed since it was listed
    }
    return needles.some((n) => bytes.includes(n));
  });
}
