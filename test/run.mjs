// `node test/run.mjs [fragment…]`: the test files (all, or those whose path contains a fragment).
import { spawnSync } from 'node:child_process';
import { testConcurrency, testFiles } from './test-files.mjs';

const selected = testFiles(process.argv.slice(2));
const r = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${testConcurrency()}`,
    '--test-reporter=spec',
    ...selected,
  ],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
