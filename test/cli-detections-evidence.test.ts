/**
 * Detections keep evidence with bounded memory: only for kept or sampled matches, for the first
 * EVIDENCE_PER_RULE matches of each rule, and none for correlations; `details` in every format.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Detections, EVIDENCE_PER_RULE, matchRecords } from '../src/cli/detections.js';
import { eventFromObject, loadRules } from '../src/sigma/index.js';

const [noisy, rare] = loadRules(
  ['noisy', 'rare']
    .map(
      (name, i) =>
        `title: ${name}\nid: 00000000-0000-4000-8000-00000000000${i}\nlogsource: {product: windows, category: process_creation}\ndetection:\n  s:\n    CommandLine|contains: '${name}'\n  condition: s\n`,
    )
    .join('---\n'),
  'r.yml',
).rules;

test('evidence stops after EVIDENCE_PER_RULE matches of a rule, and a rarer rule still gets its own', () => {
  const d = new Detections(1_000_000, 200);
  const event = eventFromObject({ CommandLine: 'run noisy rare', Image: 'C:\\x.exe' });
  for (let i = 0; i < EVIDENCE_PER_RULE + 50; i++) d.add(noisy!, { recordId: i + 1, timestamp: i }, event);
  d.add(rare!, { recordId: 99_999, timestamp: 1 }, event);
  assert.equal(d.kept.filter((m) => m.evidence !== undefined).length, EVIDENCE_PER_RULE + 1);
  assert.equal(d.evidenceOmitted, 50);
  assert.equal(d.kept.at(-1)!.evidence![0]!.name, 'CommandLine');
  const rows = matchRecords(d).rows;
  assert.equal(rows[0]!.details, 'CommandLine: run noisy rare ¦ Image: C:\\x.exe');
  assert.equal(rows[EVIDENCE_PER_RULE]!.details, null);
});

test('matches neither kept nor sampled are counted and not given evidence', () => {
  const d = new Detections(2, 1);
  const event = eventFromObject({ CommandLine: 'noisy' });
  for (let i = 0; i < 10; i++) d.add(noisy!, { recordId: i + 1, timestamp: i }, event);
  assert.equal(d.total, 10);
  assert.equal(d.kept.length, 2);
  assert.equal(d.rules()[0]!.withEvidence, 2);
  assert.equal(d.rules()[0]!.sample[0], d.kept[0]); // one object, not a copy
});
