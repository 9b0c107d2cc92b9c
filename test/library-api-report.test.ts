/**
 * The published surface, pinned: test/golden/api-report.txt lists every name of every entry
 * point with its declared signature, so adding, removing or retyping an export fails here
 * until the golden is rewritten on purpose (UPDATE_GOLDEN=1).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiReport } from './helpers/api-report.js';
import { ensureBuilt } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';

ensureBuilt();
const report = apiReport();

test('the exports of every entry point match the API report', () => {
  matchesGolden('api-report.txt', report.text);
});

test('the published declarations type-check in a strict consumer with skipLibCheck false', () => {
  assert.deepEqual(report.diagnostics, []);
});
