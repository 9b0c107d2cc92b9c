/**
 * Lists of paths for `-` (standard input) and `@LIST` (a file): one path a line, `\n` or
 * `\r\n`, blank lines skipped, each line taken as it is (no quoting, no globbing, no `@…` or
 * `-` again). Bounded: at most `maxPaths` lines and 4,096 bytes a line, 64 MiB in all. A list
 * that is missing, unreadable or empty is an input error (exit 3), never an empty run.
 */
import { readFileSync, statSync } from 'node:fs';
import { TaeError } from '../errors/index.js';
import { usage } from './common.js';

const MAX_LIST_BYTES = 64 * 1024 * 1024;
const MAX_LINE = 4096;

function pathsOf(text: string, where: string, maxPaths: number): string[] {
  const paths: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    if (line.length > MAX_LINE || line.includes('\0'))
      throw new TaeError(
        'INPUT_UNREADABLE',
        `${where} line ${i + 1}: not a path (over ${MAX_LINE} characters or a NUL)`,
      );
    if (paths.length >= maxPaths) throw new TaeError('TOO_LARGE', `${where}: more than ${maxPaths} paths`);
    paths.push(line);
  }
  if (paths.length === 0) throw new TaeError('INPUT_UNREADABLE', `${where} lists no paths`);
  return paths;
}

/** The paths of the list file `path` (the operand was `@path`). */
export function readPathList(path: string, maxPaths: number): string[] {
  const where = `@${path}`;
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new TaeError('INPUT_UNREADABLE', `cannot read list ${where}: not a regular file`);
    if (st.size > MAX_LIST_BYTES)
      throw new TaeError('TOO_LARGE', `list ${where} is over ${MAX_LIST_BYTES / 1024 / 1024} MiB`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof TaeError) throw e;
    throw new TaeError(
      'INPUT_UNREADABLE',
      `cannot read list ${where}: ${(e as NodeJS.ErrnoException).code ?? e}`,
      {
        cause: e,
      },
    );
  }
  return pathsOf(text, where, maxPaths);
}

/** The paths on standard input (the operand was `-`); a terminal there is a usage error. */
export async function readStdinPaths(maxPaths: number): Promise<string[]> {
  const stdin = process.stdin;
  if (stdin.isTTY) throw usage('- reads paths from standard input, which is a terminal (pipe a list in)');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_LIST_BYTES)
      throw new TaeError(
        'TOO_LARGE',
        `standard input: the path list is over ${MAX_LIST_BYTES / 1024 / 1024} MiB`,
      );
    chunks.push(chunk);
  }
  return pathsOf(Buffer.concat(chunks).toString('utf8'), 'standard input (-)', maxPaths);
}
