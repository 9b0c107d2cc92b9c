/**
 * The published surface, pinned: test/golden/api-report.txt lists every name of every entry
 * point with its declared signature, so adding, removing or retyping an export fails here
 * until the golden is rewritten on purpose (UPDATE_GOLDEN=1).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiReport } from './helpers/api-report.js';
import { ensureBuilt } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';

ensureBuilt();
const report = apiReport();

const GOLDEN = join(import.meta.dirname, 'golden', 'api-report.txt');

test('the exports of every entry point match the API report', () => {
  if (process.env.UPDATE_GOLDEN !== '1' && existsSync(GOLDEN)) {
    // The lines that differ, before the whole-file comparison (whose diff is truncated).
    const want = new Set(readFileSync(GOLDEN, 'utf8').split('\n'));
    const got = new Set(report.text.split('\n'));
    const changed = {
      added: [...got].filter((l) => !want.has(l)),
      removed: [...want].filter((l) => !got.has(l)),
    };
    assert.deepEqual(
      changed,
      { added: [], removed: [] },
      'the API surface changed (UPDATE_GOLDEN=1 accepts it)',
    );
  }
  matchesGolden('api-report.txt', report.text);
});

test('the published declarations type-check in a strict consumer with skipLibCheck false', () => {
  assert.deepEqual(report.diagnostics, []);
});
