/**
 * The one directory walker (rule packs, `tae sigma --rule DIR`, the CLI's input directories):
 * depth first, entries in code-unit name order at every level so results never depend on the
 * file system, symbolic links to directories never followed (loops, and trees outside the
 * root), depth bounded. Links to files are followed only when the caller asks.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface WalkOptions {
  /** Directories deeper than this (the root is 0) are not read; `onTooDeep` hears of them. */
  readonly maxDepth: number;
  /** Skips names starting with '.' (files and directories: `.git/`, `.github/…`). */
  readonly skipDotNames: boolean;
  /** Yields symbolic links whose target is a regular file (default: every link is passed over). */
  readonly followFileSymlinks?: boolean;
  /** A link not followed: any link by default, else one to a directory, a special file or nothing. */
  readonly onSymlink?: (entry: WalkEntry) => void;
  readonly onTooDeep?: (entry: WalkEntry) => void;
  /**
   * A directory that cannot be listed (the root included), with the system's error; without
   * this callback the error is thrown.
   */
  readonly onUnreadable?: (entry: WalkEntry, error: NodeJS.ErrnoException) => void;
}

export interface WalkEntry {
  /** The path on disk (root joined with `rel`). */
  readonly path: string;
  /** The path below the root, `/`-separated. */
  readonly rel: string;
  readonly name: string;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Whether a link leads to a regular file (a dangling or looping link does not). */
function linksToFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** The regular files below directory `root` (FIFOs, sockets and devices are passed over). */
export function* walkFiles(root: string, o: WalkOptions): Generator<WalkEntry> {
  function* walk(dir: WalkEntry, depth: number): Generator<WalkEntry> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir.path, { withFileTypes: true }).sort(byName);
    } catch (e) {
      if (o.onUnreadable === undefined) throw e;
      o.onUnreadable(dir, e as NodeJS.ErrnoException);
      return;
    }
    for (const e of entries) {
      if (o.skipDotNames && e.name.startsWith('.')) continue;
      const entry = {
        path: join(dir.path, e.name),
        rel: dir.rel === '' ? e.name : `${dir.rel}/${e.name}`,
        name: e.name,
      };
      if (e.isSymbolicLink()) {
        if (o.followFileSymlinks === true && linksToFile(entry.path)) yield entry;
        else o.onSymlink?.(entry);
      } else if (e.isDirectory()) {
        if (depth + 1 > o.maxDepth) o.onTooDeep?.(entry);
        else yield* walk(entry, depth + 1);
      } else if (e.isFile()) yield entry;
    }
  }
  yield* walk({ path: root, rel: '', name: root }, 0);
}
