/**
 * The temporary directories event indexes are built in (`tae search FILE`, `buildIndex`
 * without `path`, an Engine in memory), named `tae-<kind>-<pid>-XXXXXX` so that whose a
 * directory is can be read from its name. Each maker removes its own (close, exit, signal),
 * but a process killed with SIGKILL cannot, so every maker first sweeps the directories of
 * processes that are gone. A live process's directory is never touched; a dead one's pid
 * taken by a new process keeps it until that one is gone too (erring towards keeping).
 */
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `sort`: the runs `tae sigma` merges into time order (src/cli/time-order.ts). */
export type TempDirKind = 'search' | 'search-index' | 'indexes' | 'sort';

/** Only names this module makes: another program's `tae-…` directory is not ours to judge. */
const OURS = /^tae-(?:search|search-index|indexes|sort)-(\d+)-[A-Za-z0-9]{6}$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, and someone else's
  }
}

/**
 * Removes the temporary directories in `within` whose process is gone (and that this user
 * owns); how many. Never throws: a sweep must not stop the run that makes it.
 */
export function sweepTempDirs(within: string = tmpdir()): number {
  let names: string[];
  try {
    names = readdirSync(within);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(OURS.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    const path = join(within, name);
    try {
      const st = lstatSync(path);
      // A link or a file under such a name, or another user's directory, is left alone.
      if (!st.isDirectory() || (process.getuid !== undefined && st.uid !== process.getuid())) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone already (another sweep), or not ours to remove
    }
  }
  return removed;
}

/** A new owner-only (0700) directory for `kind` in `within`, made after sweeping `within`. */
export function makeTempDir(kind: TempDirKind, within: string = tmpdir()): string {
  sweepTempDirs(within);
  return mkdtempSync(join(within, `tae-${kind}-${process.pid}-`));
}
