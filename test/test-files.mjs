// The test files, listed explicitly (Node 20's --test does not expand globs), sorted; with
// arguments, only the files whose path contains one of them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function testFiles(only = []) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts')) files.push(p);
    }
  };
  walk('test');
  files.sort();
  return only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
}
