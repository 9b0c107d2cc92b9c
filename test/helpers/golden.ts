/** Golden files: compare with test/golden/NAME, or write it when UPDATE_GOLDEN=1. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '..', 'golden');

export function matchesGolden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    writeFileSync(path, actual);
    return;
  }
  // A missing golden is a failure, not a silent first write: that would pass any output.
  if (!existsSync(path)) assert.fail(`golden file ${name} is missing (UPDATE_GOLDEN=1 writes it)`);
  assert.equal(
    actual,
    readFileSync(path, 'utf8'),
    `output differs from test/golden/${name} (UPDATE_GOLDEN=1 rewrites it)`,
  );
}
