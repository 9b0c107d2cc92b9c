/**
 * How a refusal names what a path is, for every reader that stats before it opens (logs, rule
 * packs, rule files): the same words wherever a FIFO or a device is turned away.
 */

/** The type tests of `fs.Stats`, so this pure module needs no I/O import. */
export interface FileTypeStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/** `a directory`, `a FIFO (pipe)`, `a character device`…; `a regular file` for a file. */
export function fileKindOf(st: FileTypeStats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'a special file';
}
