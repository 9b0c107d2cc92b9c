/**
 * File names as the report shows them: relative to the folder every input shares, so 593 files
 * under one case folder read as `DeepBlueCLI/x.evtx` instead of the same long absolute prefix
 * 593 times. Both separators count, since a job's names and a Windows path can carry `\`.
 */

const SEPARATOR = /[\\/]/;

/** The longest folder prefix (ending in a separator) that every path starts with; '' when none. */
export function commonFolder(paths: readonly string[]): string {
  const named = paths.filter((p) => p !== '');
  if (named.length === 0) return '';
  let prefix = named[0]!;
  for (const p of named) {
    let i = 0;
    while (i < prefix.length && i < p.length && prefix[i] === p[i]) i++;
    prefix = prefix.slice(0, i);
  }
  // Cut back to the last separator so a shared partial name (`case-1`, `case-12`) stays whole.
  let end = prefix.length;
  while (end > 0 && !SEPARATOR.test(prefix[end - 1]!)) end--;
  return prefix.slice(0, end);
}

/** `path` without the common folder (unchanged when it does not start with it). */
export const relativeTo = (folder: string, path: string): string =>
  folder !== '' && path.startsWith(folder) ? path.slice(folder.length) : path;
