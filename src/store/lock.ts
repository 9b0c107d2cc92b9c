/**
 * One engine per data directory: a lock file holding the owner's pid. A lock whose process is
 * gone (killed) is taken over; a live one refuses the open with LOCKED, naming the directory
 * and the pid, because a second engine would sweep the first one's unfinished uploads as crash
 * debris. Only issuing a token goes on beside the holder (tokens.ts `insertTokenBeside`).
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
  const other = holder !== null && Number.isInteger(holder) && holder !== process.pid && alive(holder);
  if (heldHere.has(dir) || other) {
    const who = other ? `process ${holder}` : 'this process';
    throw new TaeError('LOCKED', `the data directory ${dir} is locked: ${who} has an engine open on it`, {
      context: { dataDir: dir, lockFile: file, pid: other ? holder! : process.pid },
    });
  }
  writeFileSync(file, String(process.pid));
  heldHere.add(dir);
  return () => {
    heldHere.delete(dir);
    rmSync(file, { force: true });
  };
}
