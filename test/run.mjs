// Node 20's --test does not expand globs: list the test files explicitly.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

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
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...selected], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
