/**
 * One engine per data directory: a lock file holding the owner's pid. A lock whose process is
 * gone (killed) is taken over; a live one refuses the open, because a second engine would
 * sweep the first one's unfinished uploads as crash debris.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TaeError } from '../errors/index.js';

const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock; returns its release function. */
export function lockDataDir(dataDir: string): () => void {
  const dir = resolve(dataDir);
  const file = join(dir, 'engine.lock');
  let holder: number | null = null;
  try {
    holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {}
  const busy =
    heldHere.has(dir) ||
    (holder !== null && Number.isInteger(holder) && holder !== process.pid && alive(holder));
  if (busy) {
    throw new TaeError('INVALID_ARGUMENT', `the data directory ${dir} is in use by another engine`, {
      context: { dataDir: dir, pid: holder ?? process.pid },
    });
  }
  writeFileSync(file, String(process.pid));
  heldHere.add(dir);
  return () => {
    heldHere.delete(dir);
    rmSync(file, { force: true });
  };
}
