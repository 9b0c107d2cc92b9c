/**
 * Reading a directory pack: rule files by extension, dot entries skipped (`.github/…`),
 * symbolic links not followed (loops, and files outside the pack), every bound enforced.
 */
import { readFileSync, statSync } from 'node:fs';
import { TaeError } from '../errors/index.js';
import { ruleFileOf } from './names.js';
import type { CandidateFile, PackScan, ScanProblem } from './scan.js';
import type { PackLimits } from './types.js';
import { walkFiles } from './walk.js';

export function tooLarge(pack: string, what: string, limit: number): TaeError {
  return new TaeError('TOO_LARGE', `rule pack ${pack} rejected: more than ${limit} ${what}`, {
    context: { pack, limit },
  });
}

export function scanDirectory(root: string, limits: PackLimits): PackScan {
  const files: CandidateFile[] = [];
  const problems: ScanProblem[] = [];
  let total = 0;
  const entries = walkFiles(root, {
    maxDepth: limits.maxDepth,
    skipDotNames: true,
    onSymlink: ({ rel }) =>
      problems.push({ path: rel, code: 'file.symlink', message: 'symbolic link not followed' }),
    onTooDeep: ({ rel }) =>
      problems.push({
        path: rel,
        code: 'dir.too_deep',
        message: `nested deeper than ${limits.maxDepth} levels`,
      }),
  });
  for (const { path: abs, rel: path, name } of entries) {
    const rule = ruleFileOf(name);
    if (rule === undefined) continue;
    if (files.length >= limits.maxFiles) throw tooLarge(root, 'rule files', limits.maxFiles);
    try {
      const size = statSync(abs).size;
      // Checked before and after the read: the file may grow in between.
      const bytes = size > limits.maxFileBytes ? undefined : readFileSync(abs);
      if (bytes === undefined || bytes.length > limits.maxFileBytes) {
        const got = bytes?.length ?? size;
        problems.push({
          path,
          code: 'file.too_large',
          message: `${got} bytes, over ${limits.maxFileBytes}`,
        });
        continue;
      }
      total += bytes.length;
      if (total > limits.maxTotalBytes) throw tooLarge(root, 'bytes of rule files', limits.maxTotalBytes);
      files.push({ path, ...rule, bytes });
    } catch (err) {
      if (err instanceof TaeError) throw err;
      problems.push({ path, code: 'file.unreadable', message: (err as Error).message });
    }
  }
  return { files, problems };
}
