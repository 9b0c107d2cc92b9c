/**
 * Everything the engine creates in a data directory is owner-only: directories 0700, files
 * 0600. Modes are set explicitly after creating, so the result does not depend on the umask,
 * and things an older version created 0755/0644 are tightened on the next open. SQLite gives
 * its -wal, -shm and -journal files the mode of their database file, so a database created
 * here 0600 keeps its companions 0600 too. The data directory itself is the user's: its mode is
 * left as it is (what it holds is owner-only either way).
 */
import { chmodSync, closeSync, constants, fchmodSync, mkdirSync, openSync } from 'node:fs';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** Creates `dir` (its parent exists) or tightens it, owner-only. */
export function ownerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  chmodSync(dir, DIR_MODE);
}

/** Creates `file` empty if missing (never truncates), owner-only. */
export function ownerOnlyFile(file: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT, FILE_MODE);
  try {
    fchmodSync(fd, FILE_MODE);
  } finally {
    closeSync(fd);
  }
}

/** Tightens a file an older version may have created, if it exists. */
export function tightenFile(file: string): void {
  try {
    chmodSync(file, FILE_MODE);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** A SQLite database file made owner-only before SQLite opens it, and its companions. */
export function ownerOnlyDatabase(file: string): void {
  ownerOnlyFile(file);
  for (const suffix of ['-wal', '-shm', '-journal']) tightenFile(`${file}${suffix}`);
}
