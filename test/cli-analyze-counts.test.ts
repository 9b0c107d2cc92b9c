/**
 * The counts `tae analyze` gives agree wherever they appear (issue 47): the summary says how
 * many loaded rules are evaluated and why the others are not (a SigmaHQ checkout holds rules
 * for Linux, cloud and proxy logs), and `-o`'s results carry those counts and the record count
 * as numbers, the same record count the summary prints (duplicates left out), beside the
 * records read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-analyze-counts-'));
const log = writeEvtx(exampleEvents());
// The same log under two names: every record of the second is a duplicate.
writeFileSync(join(dir, 'first.evtx'), log);
writeFileSync(join(dir, 'copy.evtx'), log);
mkdirSync(join(dir, 'rules'));
writeFileSync(
  join(dir, 'rules', 'windows.yml'),
  `title: Any logon failure
level: low
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
`,
);
writeFileSync(
  join(dir, 'rules', 'linux.yml'),
  `title: Shadow file read
level: high
logsource: {product: linux, category: file_access}
detection:
  selection: {TargetFilename: /etc/shadow}
  condition: selection
`,
);
const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

test('the summary says how many loaded rules are evaluated and why the others are not', () => {
  const r = tae('analyze', '--rule', 'rules', 'first.evtx');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Sigma: 2 rules, 1 evaluated \(1 not for Windows event logs\); \d+ match/m);
});

test("results.json counts are numbers, and its record count is the summary's", () => {
  const r = tae('analyze', '--rule', 'rules', '-o', 'results.json', 'first.evtx', 'copy.evtx');
  assert.equal(r.status, 0, r.stderr);
  const analysed = /^Analysed 2 files, (\d+) records \((\d+) duplicates skipped\)/m.exec(r.stdout);
  assert.ok(analysed, r.stdout);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  assert.equal(results.records, Number(analysed[1]));
  assert.equal(results.duplicate_records, Number(analysed[2]));
  assert.equal(results.records_read, 2 * results.records);
  assert.equal(results.sigma.rules_loaded, 2);
  assert.equal(results.sigma.rules_evaluated, 1);
  assert.deepEqual(results.sigma.rules_not_evaluated, { 'logsource.not_applicable': 1 });
  assert.equal(results.sigma.correlations, 0);
  assert.equal(results.sigma.rules_left_out, 0);
});
