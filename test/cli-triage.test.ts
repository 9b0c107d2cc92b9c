/**
 * The triage controls of `tae sigma` and `tae analyze` on a generated log and rule directory
 * (test/helpers/triage-fixture.ts): which rules run, which events are evaluated, the rule
 * profile, and bad values as usage errors naming their flag.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { RULE_ID, writeTriageFixture } from './helpers/triage-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-triage-'));
writeTriageFixture(dir);
const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

const NAME: Record<string, string> = Object.fromEntries(Object.entries(RULE_ID).map(([k, v]) => [v, k]));

/** `tae sigma --json` over the fixture: `rule record` pairs, sorted. */
function sigma(...flags: string[]): string[] {
  const r = tae('sigma', '--json', '--rule', 'rules', ...flags, 'triage.evtx');
  assert.equal(r.status, 0, r.stderr);
  const rows = JSON.parse(r.stdout) as { rule_id: string; record_id: number }[];
  return rows.map((m) => `${NAME[m.rule_id]} ${m.record_id}`).sort();
}

/** The same through `tae analyze -o`. */
function analyze(...flags: string[]): string[] {
  const r = tae('analyze', '--rule', 'rules', '-q', '-o', 'out.json', ...flags, 'triage.evtx');
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    sigma: { detections: { rule_id: string; record_id: number }[] };
  };
  return doc.sigma.detections.map((m) => `${NAME[m.rule_id]} ${m.record_id}`).sort();
}

const DEFAULT = ['exp 1', 'exp 3', 'high 3', 'low 1', 'low 2', 'low 4'];

test('by default deprecated and unsupported rules are left out; stable, test and experimental run', () => {
  assert.deepEqual(sigma(), DEFAULT);
  assert.deepEqual(analyze(), DEFAULT);
});

test('--status chooses the statuses that run; all runs every status', () => {
  assert.deepEqual(sigma('--status', 'stable'), ['low 1', 'low 2', 'low 4']);
  assert.deepEqual(sigma('--status', 'stable,deprecated'), [
    'dep 1',
    'dep 2',
    'dep 4',
    'low 1',
    'low 2',
    'low 4',
  ]);
  assert.deepEqual(sigma('--status', 'all'), [...DEFAULT, 'dep 1', 'dep 2', 'dep 4', 'unsup 3'].sort());
  assert.deepEqual(analyze('--status', 'test,experimental'), ['exp 1', 'exp 3', 'high 3']);
});

test('--min-level runs only rules at or above the level', () => {
  assert.deepEqual(sigma('--min-level', 'medium'), ['exp 1', 'exp 3', 'high 3']);
  assert.deepEqual(analyze('--min-level', 'high'), ['high 3']);
  assert.deepEqual(sigma('--min-level', 'high', '--status', 'all'), [
    'dep 1',
    'dep 2',
    'dep 4',
    'high 3',
    'unsup 3',
  ]);
});

test('--include-rule keeps rules by id, tag or file name; --exclude-rule removes them', () => {
  assert.deepEqual(sigma('--include-rule', RULE_ID.high), ['high 3']);
  assert.deepEqual(sigma('--include-rule', 'ATTACK.T1110'), ['exp 1', 'exp 3', 'low 1', 'low 2', 'low 4']);
  assert.deepEqual(sigma('--include-rule', 'r-high.yml', '--include-rule', 'r-exp'), [
    'exp 1',
    'exp 3',
    'high 3',
  ]);
  assert.deepEqual(sigma('--exclude-rule', 'attack.t1110'), ['high 3']);
  assert.deepEqual(analyze('--include-rule', 'attack.t1110', '--exclude-rule', RULE_ID.low), [
    'exp 1',
    'exp 3',
  ]);
});

test('--exclude-file reads one entry a line, skipping blanks and # comments', () => {
  writeFileSync(
    join(dir, 'noisy.txt'),
    `# noisy in this lab\n${RULE_ID.low}  # brute force\n\n  r-exp.yml \n`,
  );
  assert.deepEqual(sigma('--exclude-file', 'noisy.txt'), ['high 3']);
  assert.deepEqual(analyze('--exclude-file', 'noisy.txt'), ['high 3']);
});

test('--from and --to evaluate only events inside the window, ISO 8601 or Unix ms, ends included', () => {
  assert.deepEqual(sigma('--from', '2026-03-01T10:05:00Z', '--to', '2026-03-01T10:10:00Z'), [
    'exp 3',
    'high 3',
    'low 2',
  ]);
  const ms = String(Date.parse('2026-03-01T10:10:00Z'));
  assert.deepEqual(sigma('--from', ms), ['exp 3', 'high 3', 'low 4']);
  assert.deepEqual(analyze('--to', '2026-03-01T10:00:00'), ['exp 1', 'low 1']);
  assert.deepEqual(sigma('--from', '2026-03-01T11:05:00+01:00', '--to', '2026-03-01T10:05:00Z'), ['low 2']);
});

test('--computer evaluates only events of the named computers, any case', () => {
  assert.deepEqual(sigma('--computer', 'host-a'), ['exp 1', 'exp 3', 'high 3', 'low 1']);
  assert.deepEqual(analyze('--computer', 'HOST-B', '--computer', 'Host-C'), ['low 2', 'low 4']);
});

test('--profile-rules lists every run rule with its time, evaluations and matches on stderr and in -o', () => {
  const r = tae('sigma', '--rule', 'rules', '--profile-rules', 'triage.evtx');
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('tae: profile: '));
  assert.equal(lines[0], 'tae: profile: 3 rules, slowest first');
  const rows = lines.slice(1).map((l) => l.split('\t'));
  assert.deepEqual(rows.map((c) => `${c[3]} ${c[2]}`).sort(), [
    `${RULE_ID.low} 3 matches`,
    `${RULE_ID.high} 1 match`,
    `${RULE_ID.exp} 2 matches`,
  ]);
  const times = rows.map((c) => Number(/([\d.]+) ms$/.exec(c[0] ?? '')?.[1]));
  assert.deepEqual(
    [...times].sort((a, b) => b - a),
    times,
  );
  analyze('--profile-rules');
  const doc = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    rule_profile: { rule_id: string; matches: number; milliseconds: number }[];
  };
  assert.deepEqual(doc.rule_profile.map((p) => `${NAME[p.rule_id]} ${p.matches}`).sort(), [
    'exp 2',
    'high 1',
    'low 3',
  ]);
});

test('bad triage values are usage errors (exit 2) naming the flag', () => {
  const cases: [string[], RegExp][] = [
    [['--min-level', 'severe'], /--min-level/],
    [['--status', 'stable,bogus'], /--status .*"bogus"/],
    [['--from', 'yesterday'], /--from must be an ISO 8601 time/],
    [['--to', '2026-13-45'], /--to must be an ISO 8601 time/],
    [['--to', '2026-02-30T00:00:00Z'], /--to must be an ISO 8601 time/],
    [['--from', '2026-03-02', '--to', '2026-03-01'], /--from must not be after --to/],
    [['--exclude-file', 'missing.txt'], /--exclude-file: cannot read missing.txt: ENOENT/],
    [['--include-rule', ' '], /--include-rule needs/],
    [['--include-rule', 'no-such-rule'], /no Sigma rule left to run: the rule filters left out all 5/],
  ];
  for (const [flags, message] of cases) {
    for (const command of ['sigma', 'analyze']) {
      const r = tae(command, '--rule', 'rules', ...flags, 'triage.evtx');
      assert.equal(r.status, 2, `${command} ${flags.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, `${command} ${flags.join(' ')}`);
    }
  }
});
