/** Golden files: compare with test/golden/NAME, or rewrite it when UPDATE_GOLDEN=1. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '..', 'golden');

export function matchesGolden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(path)) {
    if (process.env.CI && !existsSync(path)) assert.fail(`golden file ${name} is missing`);
    writeFileSync(path, actual);
    return;
  }
  assert.equal(
    actual,
    readFileSync(path, 'utf8'),
    `output differs from test/golden/${name} (UPDATE_GOLDEN=1 rewrites it)`,
  );
}
