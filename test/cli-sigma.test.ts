/**
 * `tae sigma`, the built binary: the same matches whether the events come as EVTX, as the
 * evtx_dump-shaped JSON lines `tae parse` prints or as event XML; custom rules with a
 * correlation; every match in --json with rule id, title, level and record id; exit codes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-sigma-'));
writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
writeFileSync(join(dir, 'small.evtx'), smallLog());
const tae = (...args: string[]) => runTae(dir, args);

const BASE_RULE = `title: Failed logon from the lab attacker
id: 5b0e2f3c-0000-4000-8000-000000000001
status: test
level: medium
logsource:
  product: windows
  service: security
detection:
  selection:
    EventID: 4625
    IpAddress: 10.0.13.37
  condition: selection
`;
const CORRELATION = (generate: boolean) => `---
title: Repeated failed logons from one address
id: 5b0e2f3c-0000-4000-8000-000000000002
level: high
correlation:
  type: event_count
  rules:
    - 5b0e2f3c-0000-4000-8000-000000000001
  group-by:
    - IpAddress
  timespan: 1m
  condition:
    gte: 3
generate: ${generate}
`;
writeFileSync(join(dir, 'failed-logons.yml'), BASE_RULE + CORRELATION(false));
writeFileSync(join(dir, 'failed-logons-all.yml'), BASE_RULE + CORRELATION(true));
writeFileSync(join(dir, 'broken.yml'), 'title: no detection\nlogsource: {product: windows}\n');

before(ensureBuilt);

interface Match {
  rule_id: string;
  rule_title: string;
  level: string;
  record_id: number;
}
const pairs = (stdout: string) =>
  (JSON.parse(stdout) as Match[]).map((m) => `${m.rule_id} ${m.record_id}`).sort();

test('tae sigma --json lists every community-rule match with rule id, title, level and record id', () => {
  const r = tae('sigma', '--json', 'example.evtx');
  assert.equal(r.status, 0, r.stderr);
  matchesGolden('cli-sigma-example.json', r.stdout);
  const matches = JSON.parse(r.stdout) as Match[];
  assert.equal(matches.length, 10);
  assert.ok(matches.every((m) => m.rule_id && m.rule_title && m.level && m.record_id > 0));
});

test('the same matches from EVTX, from tae parse JSON lines and from tae parse XML', () => {
  writeFileSync(join(dir, 'example.jsonl'), tae('parse', 'example.evtx').stdout);
  writeFileSync(join(dir, 'example.xml'), tae('parse', '-f', 'xml', 'example.evtx').stdout);
  const evtx = pairs(tae('sigma', '--json', 'example.evtx').stdout);
  const jsonl = tae('sigma', '--json', 'example.jsonl');
  assert.equal(jsonl.status, 0, jsonl.stderr);
  assert.deepEqual(pairs(jsonl.stdout), evtx);
  assert.deepEqual(pairs(tae('sigma', '--json', 'example.xml').stdout), evtx);
});

test('the human table lists matched rules by level with counts', () => {
  const r = tae('sigma', 'example.evtx');
  assert.equal(r.status, 0, r.stderr);
  matchesGolden('cli-sigma-example.txt', r.stdout);
});

test('custom rules: a correlation fires once and hides its base rule unless generate is true', () => {
  const hidden = tae('sigma', '--rule', 'failed-logons.yml', 'small.evtx');
  assert.equal(hidden.status, 0, hidden.stderr);
  matchesGolden('cli-sigma-correlation.txt', hidden.stdout);
  const all = JSON.parse(
    tae('sigma', '--json', '--rule', 'failed-logons-all.yml', 'small.evtx').stdout,
  ) as Match[];
  assert.deepEqual(
    all.map((m) => [m.rule_title, m.record_id]),
    // In time order: the correlation fires at its first match's time, after that match.
    [
      ['Failed logon from the lab attacker', 1],
      ['Repeated failed logons from one address', 1],
      ['Failed logon from the lab attacker', 2],
      ['Failed logon from the lab attacker', 3],
      ['Failed logon from the lab attacker', 4],
    ],
  );
});

test('flat JSON without a channel is judged by detection alone, its record id the line number', () => {
  writeFileSync(join(dir, 'flat.jsonl'), '{"EventID": 4624}\n{"EventID": 4625, "IpAddress": "10.0.13.37"}\n');
  const r = tae('sigma', '--jsonl', '--rule', 'failed-logons-all.yml', 'flat.jsonl');
  assert.equal(r.status, 0, r.stderr);
  const rows = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Match & { time: string | null });
  assert.deepEqual(
    rows.map((m) => [m.rule_title, m.record_id, m.time]),
    [['Failed logon from the lab attacker', 2, null]],
  );
});

test('tae sigma --fail-on exits 1 at or above the level, 0 below it', () => {
  assert.equal(tae('sigma', '--fail-on', 'high', 'example.evtx').status, 1);
  assert.equal(tae('sigma', '--fail-on', 'critical', 'example.evtx').status, 0);
  assert.equal(tae('sigma', '--rule', 'failed-logons.yml', '--fail-on', 'high', 'small.evtx').status, 1);
});

test('tae sigma errors: one line each, 3 for bad inputs and rules, 2 for usage', () => {
  writeFileSync(join(dir, 'bad.json'), '{ not json');
  const bad = tae('sigma', 'bad.json');
  assert.equal(bad.status, 3);
  assert.equal(
    bad.stderr,
    'tae: bad.json: not EVTX, JSON or event XML: Invalid test data format (JSON value starting at line 1, column 1 is not closed)\n',
  );
  const missing = tae('sigma', 'missing.evtx');
  assert.equal(missing.status, 3);
  assert.equal(missing.stderr, 'tae: cannot open missing.evtx: ENOENT\n');
  const broken = tae('sigma', '--rule', 'broken.yml', 'small.evtx');
  assert.equal(broken.status, 3);
  assert.match(
    broken.stderr,
    /^tae: broken\.yml: no detection: .*\(rule not loaded\)\ntae: no Sigma rule loaded: broken\.yml: /,
  );
  assert.equal(broken.stderr.trim().split('\n').length, 2);
  const pack = tae('sigma', '--pack', 'nope', 'small.evtx');
  assert.equal(pack.status, 2);
  assert.equal(pack.stderr, 'tae: no rule pack named "nope" (see tae rules list)\n');
  assert.equal(tae('sigma', '--timesketch', '--json', 'small.evtx').status, 2);
  assert.equal(tae('sigma').status, 2);
});

test('tae sigma --timesketch: one line per match with message, datetime, timestamp and timestamp_desc', () => {
  const r = tae('sigma', '--timesketch', 'example.evtx');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 10);
  for (const l of lines) {
    assert.equal(typeof l.message, 'string');
    assert.match(l.datetime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(l.timestamp, Date.parse(l.datetime) * 1000);
    assert.equal(l.timestamp_desc, 'Event Recorded');
  }
  assert.match(
    lines[0].message,
    /^Sigma medium: PowerShell Started With an Encoded Command on WS-FINANCE-07/,
  );
});
