/**
 * The one directory walker (rule packs, `tae sigma --rule DIR`, `tae yara DIR`): depth first,
 * entries in code-unit name order at every level so results never depend on the file system,
 * symbolic links never followed (loops, and files outside the tree), depth bounded.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface WalkOptions {
  /** Directories deeper than this (the root is 0) are not read; `onTooDeep` hears of them. */
  readonly maxDepth: number;
  /** Skips names starting with '.' (files and directories: `.git/`, `.github/…`). */
  readonly skipDotNames: boolean;
  readonly onSymlink?: (entry: WalkEntry) => void;
  readonly onTooDeep?: (entry: WalkEntry) => void;
}

export interface WalkEntry {
  /** The path on disk (root joined with `rel`). */
  readonly path: string;
  /** The path below the root, `/`-separated. */
  readonly rel: string;
  readonly name: string;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The regular files below directory `root` (FIFOs, sockets and devices are passed over). */
export function* walkFiles(root: string, o: WalkOptions): Generator<WalkEntry> {
  function* walk(dir: string, rel: string, depth: number): Generator<WalkEntry> {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
      if (o.skipDotNames && e.name.startsWith('.')) continue;
      const entry = { path: join(dir, e.name), rel: rel === '' ? e.name : `${rel}/${e.name}`, name: e.name };
      if (e.isSymbolicLink()) o.onSymlink?.(entry);
      else if (e.isDirectory()) {
        if (depth + 1 > o.maxDepth) o.onTooDeep?.(entry);
        else yield* walk(entry.path, entry.rel, depth + 1);
      } else if (e.isFile()) yield entry;
    }
  }
  yield* walk(root, '', 0);
}
