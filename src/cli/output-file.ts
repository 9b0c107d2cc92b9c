/**
 * Files the user named (`-o`, `--html`, `tae payloads -o DIR`), written whole or not at all.
 * On a full disk a write can be short without failing (the bytes that fit), so each write is
 * looped to its end; a regular file that could not be written whole is removed rather than
 * left truncated as if complete. A full disk is NO_SPACE (exit 7), naming the file; anything
 * else stays `cannot write <path>: <code>` (exit 3).
 */
import { closeSync, fstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { cannotWrite, isNoSpace, TaeError } from '../errors/index.js';

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.byteLength; ) {
    const written = writeSync(fd, bytes, at, bytes.byteLength - at);
    if (written === 0) throw new Error('no progress writing'); // a write of zero bytes would loop forever
    at += written;
  }
}

/** Writes the pieces, in order, to the file at `path` (replaced). */
export function writeOutputFile(path: string, pieces: Iterable<string | Uint8Array>): void {
  let fd: number | undefined;
  let regular = false;
  try {
    fd = openSync(path, 'w');
    regular = fstatSync(fd).isFile(); // never remove a device or pipe (`-o /dev/stdout`)
    for (const piece of pieces) writeAll(fd, typeof piece === 'string' ? Buffer.from(piece) : piece);
    const done = fd;
    fd = undefined;
    closeSync(done);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    if (regular) rmSync(path, { force: true });
    if (isNoSpace(e)) throw cannotWrite(path, e);
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new TaeError('INPUT_UNREADABLE', `cannot write ${path}: ${code}`, { cause: e });
  }
}
