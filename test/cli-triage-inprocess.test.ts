/**
 * The triage controls of `tae sigma` and `tae analyze` (src/cli/rule-filter.ts) called in this
 * process, where coverage sees them (test/cli-triage.test.ts runs the built CLI): flags parsed
 * by commander into a rule choice and an event window, the choice applied where the rules load
 * (sigma-rules.ts), the window where events are matched (sigma-run.ts), on the generated triage
 * fixture; and bad values as usage errors naming their flag.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { collect, intFlag, plural, threadsFlag } from '../src/cli/common.js';
import {
  chooseRules,
  DEFAULT_STATUSES,
  eventWindowOf,
  inWindow,
  ruleChoiceOf,
  type TriageFlags,
  timeFlag,
  triageOptions,
} from '../src/cli/rule-filter.js';
import { loadSigmaRules } from '../src/cli/sigma-rules.js';
import { runSigmaOver } from '../src/cli/sigma-run.js';
import { isTaeError } from '../src/errors/index.js';
import { defaultThreads } from '../src/parse/index.js';
import { RULE_ID, writeTriageFixture } from './helpers/triage-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-triage-inprocess-'));
writeTriageFixture(dir);
const RULES = join(dir, 'rules');
const LOG = join(dir, 'triage.evtx');
const NAME: Record<string, string> = Object.fromEntries(Object.entries(RULE_ID).map(([k, v]) => [v, k]));

/** The flags as commander parses them for `tae sigma` (triageOptions). */
function flagsOf(...argv: string[]): TriageFlags {
  const command = triageOptions(new Command('sigma').exitOverride()).argument('[inputs...]');
  command.parse(argv, { from: 'user' });
  return command.opts<TriageFlags>();
}

/** `rule record` pairs a run over the fixture reports with these flags, sorted. */
async function matches(...argv: string[]): Promise<string[]> {
  const flags = flagsOf(...argv);
  const rules = await loadSigmaRules({ ruleFiles: [RULES], choice: ruleChoiceOf(flags), cache: false });
  const run = await runSigmaOver({ inputs: [LOG], rules, threads: 0, window: eventWindowOf(flags) });
  assert.deepEqual(run.failures, []);
  assert.equal(run.events, 4, 'every event is read, whatever the window');
  return run.detections.kept.map((m) => `${NAME[m.rule.id!]} ${m.recordId}`).sort();
}

const usageError = (flag: string) => (e: unknown) =>
  isTaeError(e) && e.code === 'INVALID_ARGUMENT' && e.message.includes(flag);

test('in process: by default deprecated and unsupported rules are left out, as the CLI does', async () => {
  assert.deepEqual([...ruleChoiceOf({}).statuses].sort(), [...DEFAULT_STATUSES].sort());
  assert.deepEqual(await matches(), ['exp 1', 'exp 3', 'high 3', 'low 1', 'low 2', 'low 4']);
  assert.deepEqual(await matches('--status', ' Stable , deprecated'), [
    'dep 1',
    'dep 2',
    'dep 4',
    'low 1',
    'low 2',
    'low 4',
  ]);
  assert.equal((await matches('--status', 'all')).length, 10);
});

test('in process: --min-level, --include-rule and --exclude-rule choose rules by level, id, tag or file', async () => {
  assert.deepEqual(await matches('--min-level', 'medium'), ['exp 1', 'exp 3', 'high 3']);
  assert.deepEqual(await matches('--include-rule', RULE_ID.high), ['high 3']);
  assert.deepEqual(await matches('--include-rule', 'ATTACK.T1110'), [
    'exp 1',
    'exp 3',
    'low 1',
    'low 2',
    'low 4',
  ]);
  assert.deepEqual(await matches('--include-rule', 'r-high.yml', '--include-rule', 'r-exp'), [
    'exp 1',
    'exp 3',
    'high 3',
  ]);
  assert.deepEqual(await matches('--include-rule', 'rules/r-low.yml'), ['low 1', 'low 2', 'low 4']);
  assert.deepEqual(await matches('--exclude-rule', 'attack.t1110'), ['high 3']);
});

test('in process: --exclude-file reads one entry a line, comments and blank lines ignored', async () => {
  const list = join(dir, 'exclude.txt');
  writeFileSync(list, `# noisy rules\r\n${RULE_ID.low}  # by id\n\n  r-exp\n`);
  assert.deepEqual(await matches('--exclude-file', list), ['high 3']);
  assert.throws(
    () => ruleChoiceOf({ excludeFile: [join(dir, 'missing.txt')] }),
    (e: unknown) => usageError('--exclude-file')(e) && (e as Error).message.includes('missing.txt'),
  );
});

test('in process: a rule choice that leaves no rule is a usage error saying how many it left out', async () => {
  await assert.rejects(
    loadSigmaRules({ ruleFiles: [RULES], choice: ruleChoiceOf({ includeRule: ['nothing'] }), cache: false }),
    (e: unknown) => usageError('left out all 5')(e),
  );
  const some = await loadSigmaRules({
    ruleFiles: [RULES],
    choice: ruleChoiceOf({ minLevel: 'high' }),
    cache: false,
  });
  assert.equal(some.label, '1 rule (4 left out by the rule filters)');
});

test('in process: chooseRules keeps filters and diagnostics, and only the chosen rules', async () => {
  const all = await loadSigmaRules({
    ruleFiles: [RULES],
    choice: ruleChoiceOf({ status: 'all' }),
    cache: false,
  });
  assert.equal(all.loaded.rules.length, 5);
  const chosen = chooseRules(all.loaded, ruleChoiceOf({ status: 'deprecated,unsupported' }));
  assert.deepEqual(chosen.rules.map((r) => r.title).sort(), ['Odd logon', 'Old failed logon']);
  assert.equal(chosen.filters, all.loaded.filters);
  assert.equal(chosen.diagnostics, all.loaded.diagnostics);
});

test('in process: --from, --to and --computer window the events matched, both ends included', async () => {
  assert.deepEqual(await matches('--from', '2026-03-01T10:05:00Z', '--to', '2026-03-01 10:10'), [
    'exp 3',
    'high 3',
    'low 2',
  ]);
  assert.deepEqual(await matches('--computer', 'host-a'), ['exp 1', 'exp 3', 'high 3', 'low 1']);
  assert.deepEqual(await matches('--to', String(Date.parse('2026-03-01T10:00:00Z'))), ['exp 1', 'low 1']);
  assert.deepEqual(await matches('--from', '2026-03-02'), []);
});

test('timeFlag reads ISO 8601 with or without a zone and Unix ms; anything else names the flag', () => {
  assert.equal(timeFlag('--from', undefined), undefined);
  assert.equal(timeFlag('--from', '1700000000000'), 1_700_000_000_000);
  assert.equal(timeFlag('--from', '2026-03-01'), Date.parse('2026-03-01T00:00:00Z'));
  assert.equal(timeFlag('--from', '2026-03-01T10:00'), Date.parse('2026-03-01T10:00:00Z'));
  assert.equal(timeFlag('--from', '2026-03-01T12:00:00+02:00'), Date.parse('2026-03-01T10:00:00Z'));
  assert.equal(timeFlag('--to', '2026-03-01T10:00:00.1239999Z'), Date.parse('2026-03-01T10:00:00.123Z'));
  for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '', '1e3'])
    assert.throws(() => timeFlag('--to', bad), usageError('--to'), bad);
});

test('eventWindowOf refuses --from after --to and empty computers; inWindow needs a time in a window', () => {
  assert.throws(() => eventWindowOf({ from: '2026-03-02', to: '2026-03-01' }), usageError('--from'));
  assert.throws(() => eventWindowOf({ computer: [' '] }), usageError('--computer'));
  assert.deepEqual(eventWindowOf({}), {});
  const w = eventWindowOf({ from: '1000', to: '2000', computer: ['Host-A'] });
  assert.equal(inWindow(w, 1000, 'HOST-A'), true);
  assert.equal(inWindow(w, 2000, 'host-a'), true);
  assert.equal(inWindow(w, 2001, 'host-a'), false);
  assert.equal(inWindow(w, 999, 'host-a'), false);
  assert.equal(inWindow(w, 1500, 'host-b'), false);
  assert.equal(inWindow(w, undefined, 'host-a'), false);
  assert.equal(inWindow(w, Number.NaN, 'host-a'), false);
  assert.equal(inWindow({ computers: new Set(['']) }, undefined, undefined), true);
  assert.equal(inWindow({}, undefined, undefined), true);
});

test('ruleChoiceOf refuses an unknown level or status and an empty rule entry, naming the flag', () => {
  assert.throws(() => ruleChoiceOf({ minLevel: 'severe' }), usageError('--min-level'));
  assert.throws(() => ruleChoiceOf({ status: 'stable,beta' }), usageError('"beta"'));
  assert.throws(() => ruleChoiceOf({ includeRule: [''] }), usageError('--include-rule'));
  assert.throws(() => ruleChoiceOf({ excludeRule: ['a', ' '] }), usageError('--exclude-rule'));
});

test('intFlag and threadsFlag take integers in range; repeatable options collect; plural forms', () => {
  assert.equal(intFlag('--n', undefined, 0, 9), undefined);
  assert.equal(intFlag('--n', ' 7 ', 0, 9), 7);
  for (const bad of ['10', '-1', '1.5', 'x', '0x1', ''])
    assert.throws(() => intFlag('--n', bad, 0, 9), usageError('--n must be an integer from 0 to 9'), bad);
  assert.equal(threadsFlag('0'), 0);
  assert.equal(threadsFlag(undefined), defaultThreads());
  assert.throws(() => threadsFlag('65'), usageError('--threads'));
  assert.deepEqual(collect('b', collect('a')), ['a', 'b']);
  assert.deepEqual(
    [
      plural(1, 'rule'),
      plural(2, 'rule'),
      plural(2, 'match'),
      plural(0, 'box'),
      plural(3, 'child', 'children'),
    ],
    ['1 rule', '2 rules', '2 matches', '0 boxes', '3 children'],
  );
});
