/**
 * Cross-check against real logs: for every (provider, event id, version) decoded from the sample
 * corpus that the built-in data describes, the field names seen in the logs must appear, in
 * order, in one of our rows for that version (older builds may log fewer trailing fields).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { observedEventFields } from '../fixtures/lookup/extract-observed.js';
import { builtinLookupDataset } from '../src/lookup/index.js';
import { SKIP_NO_CORPUS } from './helpers/corpus.js';

const isSubsequence = (small: readonly string[], big: readonly string[]): boolean => {
  let j = 0;
  for (const s of small) {
    while (j < big.length && big[j] !== s) j++;
    if (j === big.length) return false;
    j++;
  }
  return true;
};

test('field names observed in sample logs agree with the built-in event rows', {
  skip: SKIP_NO_CORPUS,
}, () => {
  const rows = builtinLookupDataset().tables.event_id.rows;
  const byKey = new Map<string, string[][]>();
  for (const r of rows) {
    const key = `${r[3]}\t${r[0]}\t${r[2]}`;
    byKey.set(key, [...(byKey.get(key) ?? []), (r[5] as string) === '' ? [] : (r[5] as string).split('|')]);
  }
  const mismatches: string[] = [];
  let checked = 0;
  for (const [key, sets] of observedEventFields()) {
    const ours = byKey.get(key);
    if (!ours) continue;
    for (const set of sets) {
      checked++;
      const seen = set === '' ? [] : set.split('|');
      if (!ours.some((fields) => isSubsequence(seen, fields)))
        mismatches.push(`${key.replaceAll('\t', ' ')}: ${set}`);
    }
  }
  console.log(`field lists checked against sample logs: ${checked}`);
  assert.ok(checked > 150, `only ${checked} observed field lists matched a built-in row`);
  assert.deepEqual(mismatches, []);
});
