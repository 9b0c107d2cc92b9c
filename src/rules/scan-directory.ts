/**
 * Reading a directory pack: rule files by extension, dot entries skipped (`.github/…`),
 * symbolic links not followed (loops, and files outside the pack), every bound enforced.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { TaeError } from '../errors/index.js';
import { ruleFileOf } from './names.js';
import type { CandidateFile, PackScan, ScanProblem } from './scan.js';
import type { PackLimits } from './types.js';

export function tooLarge(pack: string, what: string, limit: number): TaeError {
  return new TaeError('TOO_LARGE', `rule pack ${pack} rejected: more than ${limit} ${what}`, {
    context: { pack, limit },
  });
}

function entries(dir: string): Dirent[] {
  return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

export function scanDirectory(root: string, limits: PackLimits): PackScan {
  const files: CandidateFile[] = [];
  const problems: ScanProblem[] = [];
  let total = 0;
  const walk = (dir: string, rel: string, depth: number) => {
    for (const e of entries(dir)) {
      if (e.name.startsWith('.')) continue;
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      const abs = join(dir, e.name);
      if (e.isSymbolicLink()) {
        problems.push({ path, code: 'file.symlink', message: 'symbolic link not followed' });
        continue;
      }
      if (e.isDirectory()) {
        if (depth >= limits.maxDepth)
          problems.push({
            path,
            code: 'dir.too_deep',
            message: `nested deeper than ${limits.maxDepth} levels`,
          });
        else walk(abs, path, depth + 1);
        continue;
      }
      const rule = e.isFile() ? ruleFileOf(e.name) : undefined;
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
  };
  walk(root, '', 0);
  return { files, problems };
}
