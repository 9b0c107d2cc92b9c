/**
 * The one expansion of input operands, for every command that reads files (analyze, parse,
 * sigma, payloads, yara, files upload), called before the command's own loop:
 *
 * - a directory is searched recursively (src/rules/walk.ts): for EVTX commands the files named
 *   `*.evtx` (any case) or starting with the EVTX magic `ElfFile\0`; for the others every
 *   regular file;
 * - `-` is the paths on standard input, `@LIST` the paths in the file LIST, one a line
 *   (relative to the current directory; blank lines skipped; a line is a path, never `-`,
 *   `@…` or an option again);
 * - anything else is passed through as named, so the command reports a missing or special
 *   file the way it always has.
 *
 * Policy (INPUTS_HELP, shown by each command's --help): inside a directory, names starting
 * with '.' are skipped (a dot-file or dot-directory named as an operand is read), links to
 * files are followed, links to directories are not (a warning: following them risks loops and
 * trees outside the one named); at most 32 levels and 100,000 files. A file reached twice
 * (named and inside a directory, or through a link) is read once, where first reached.
 */
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { TaeError } from '../errors/index.js';
import { walkFiles } from '../rules/index.js';
import { usage, warn } from './common.js';
import { readPathList, readStdinPaths } from './input-lists.js';
import { errLine } from './terminal.js';

/** `evtx`: directories give their EVTX files; `any`: every regular file. */
export type InputKind = 'evtx' | 'any';

export const INPUT_LIMITS = Object.freeze({ maxDepth: 32, maxFiles: 100_000, shownWarnings: 20 });

const EVTX_MAGIC = Buffer.from('ElfFile\0', 'latin1');

export interface ExpandedInputs {
  /** The files to read, in operand order, a directory's in name order. */
  readonly files: string[];
  /** Operands or directory entries that gave nothing to read, printed already (exit 3). */
  readonly unreadable: number;
}

export function inputsHelp(kind: InputKind): string {
  const found =
    kind === 'evtx'
      ? 'searched recursively for EVTX files (named *.evtx, or starting with the EVTX magic)'
      : 'searched recursively (every regular file)';
  const text = `Inputs: files; directories, ${found}; - (paths on standard input, one per line); @LIST (a file of paths, one per line, relative to the current directory). Inside a directory, names starting with '.' are skipped (name one to read it), links to files are followed, links to directories are not (with a warning); at most ${INPUT_LIMITS.maxDepth} levels and ${INPUT_LIMITS.maxFiles.toLocaleString('en')} files. A file reached twice is read once. Name a file called - or @x as ./- or ./@x.`;
  return `\n${wrap(text, 78)}`;
}

/** Words into lines of at most `width` characters. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** Whether a file in a directory is one to read: `*.evtx`, or else its first 8 bytes are the magic. */
function isEvtxFile(path: string, name: string): boolean {
  if (name.toLowerCase().endsWith('.evtx')) return true;
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8);
    return readSync(fd, head, 0, 8, 0) === 8 && head.equals(EVTX_MAGIC);
  } finally {
    closeSync(fd);
  }
}

const realPath = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** The operands as paths: `-` and `@LIST` replaced by the paths they list. */
async function operandPaths(operands: readonly string[]): Promise<string[]> {
  if (operands.filter((op) => op === '-').length > 1)
    throw usage('- (paths on standard input) may be given once');
  const paths: string[] = [];
  for (const op of operands) {
    if (op === '-') {
      paths.push(...(await readStdinPaths(INPUT_LIMITS.maxFiles)));
    } else if (op.startsWith('@') && op.length > 1)
      paths.push(...readPathList(op.slice(1), INPUT_LIMITS.maxFiles));
    else paths.push(op);
  }
  return paths;
}

/**
 * Expands the operands into the files to read. Problems (a directory that cannot be listed or
 * is too deep, a file in a directory that cannot be sniffed, a directory with nothing to read)
 * are printed as `tae: …` lines and counted; links to directories are warnings. A missing or
 * empty list, or more than the file bound, stops the run (TaeError).
 */
export async function expandInputs(operands: readonly string[], kind: InputKind): Promise<ExpandedInputs> {
  const files: string[] = [];
  const seen = new Set<string>();
  let unreadable = 0;
  const problem = (message: string) => {
    unreadable++;
    errLine(`tae: ${message}`);
  };
  const links: string[] = [];
  const add = (path: string) => {
    const key = realPath(path);
    if (seen.has(key)) return;
    seen.add(key);
    if (files.length >= INPUT_LIMITS.maxFiles)
      throw new TaeError('TOO_LARGE', `more than ${INPUT_LIMITS.maxFiles} input files`);
    files.push(path);
  };
  for (const path of await operandPaths(operands)) {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true) {
      add(path); // the command reports a missing, unreadable or special file
      continue;
    }
    let found = 0;
    const problemsBefore = unreadable;
    const entries = walkFiles(path, {
      maxDepth: INPUT_LIMITS.maxDepth,
      skipDotNames: true,
      followFileSymlinks: true,
      onSymlink: (e) => links.push(e.path),
      onTooDeep: (e) => problem(`${e.path}: not read, nested deeper than ${INPUT_LIMITS.maxDepth} levels`),
      onUnreadable: (e, err) => problem(`cannot open directory ${e.path}: ${err.code ?? err.message}`),
    });
    for (const e of entries) {
      try {
        if (kind === 'evtx' && !isEvtxFile(e.path, e.name)) continue;
      } catch (err) {
        problem(`cannot open ${e.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        continue;
      }
      found++;
      add(e.path);
    }
    if (found === 0 && unreadable === problemsBefore)
      problem(`${path}: no ${kind === 'evtx' ? 'EVTX files' : 'files'} in this directory`);
  }
  for (const l of links.slice(0, INPUT_LIMITS.shownWarnings))
    warn(`${l}: not followed (a link to a directory, or a broken link)`);
  if (links.length > INPUT_LIMITS.shownWarnings)
    warn(`${links.length - INPUT_LIMITS.shownWarnings} more links not followed`);
  return { files, unreadable };
}
