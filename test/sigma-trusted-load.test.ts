/**
 * Deferred compilation (load.ts `trusted`): documents an earlier load vouched for are built
 * without compiling their matchers, which compile when an event first reaches them, with the
 * same verdicts. The CLI's rule cache vouches only for documents that compiled without error,
 * so a broken rule is diagnosed on every run, cached or not.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadSigmaRules } from '../src/cli/sigma-rules.js';
import { ruleCacheStats } from '../src/rules/index.js';
import {
  compiledDocuments,
  compileRuleSet,
  eventFromObject,
  loadRules,
  type RuleSet,
  type SigmaEvent,
} from '../src/sigma/index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
const doc = (title: string, detection: string) =>
  `title: ${title}\nlogsource:\n  product: windows\n  category: process_creation\ndetection:\n${detection.replace(/^/gm, '  ')}\n`;

const GOOD = [
  doc('contains', "sel:\n  CommandLine|contains|all: ['-enc', 'powershell']\ncondition: sel"),
  doc('regex', "sel:\n  CommandLine|re: '(?i)invoke-[a-z]+'\ncondition: sel"),
  doc(
    'endswith',
    "sel:\n  Image|endswith: '\\\\whoami.exe'\nfilter:\n  User: SYSTEM\ncondition: sel and not filter",
  ),
  doc('keyword', "kw:\n  - 'sekurlsa::'\ncondition: kw"),
].join('---\n');
/** Compiling it throws (an unclosed group), so loading it eagerly is a diagnostic. */
const BROKEN = doc('broken', "sel:\n  CommandLine|re: '(unclosed'\ncondition: sel");

const events: SigmaEvent[] = [
  { CommandLine: 'powershell -enc SQBFAFgA', Image: 'C:\\w\\powershell.exe', User: 'bob' },
  { CommandLine: 'cmd /c Invoke-Mimikatz', Image: 'C:\\w\\cmd.exe', User: 'bob' },
  { CommandLine: 'whoami /all', Image: 'C:\\W\\WHOAMI.EXE', User: 'bob' },
  { CommandLine: 'whoami', Image: 'C:\\w\\whoami.exe', User: 'SYSTEM' },
  { CommandLine: 'mimikatz sekurlsa::logonpasswords', Image: 'C:\\t\\m.exe', User: 'x' },
].map((fields) => eventFromObject({ Channel: SYSMON, EventID: 1, ...fields }));

const verdicts = (rs: RuleSet) => events.map((e) => rs.match(e).map((m) => m.rule.title));

test('trusted documents match exactly as eagerly compiled ones', () => {
  const eager = loadRules(GOOD, 'r.yml');
  const trusted = loadRules(GOOD, 'r.yml', { trusted: new Set([0, 1, 2, 3]) });
  assert.deepEqual(eager.diagnostics, []);
  assert.deepEqual(trusted.diagnostics, []);
  const expected = verdicts(compileRuleSet({ rules: eager.rules }));
  assert.deepEqual(expected, [['contains'], ['regex'], ['endswith'], [], ['keyword']]);
  assert.deepEqual(verdicts(compileRuleSet({ rules: trusted.rules })), expected);
  // The rule-level matcher (used without a rule set) is deferred as well.
  assert.deepEqual(
    events.map((e) => trusted.rules.filter((r) => r.matches(e)).map((r) => r.title)),
    events.map((e) => eager.rules.filter((r) => r.matches(e)).map((r) => r.title)),
  );
});

test('a trusted document is not compiled at load: a false promise shows as evaluation errors, never a crash', () => {
  const eager = loadRules(BROKEN, 'b.yml');
  assert.equal(eager.rules.length, 0);
  assert.equal(eager.diagnostics.length, 1);
  const trusted = loadRules(BROKEN, 'b.yml', { trusted: new Set([0]) });
  assert.deepEqual(trusted.diagnostics, []);
  const rs = compileRuleSet({ rules: trusted.rules });
  assert.deepEqual(verdicts(rs), [[], [], [], [], []]);
  assert.equal(rs.stats()[0]?.variants[0]?.errors, events.length);
});

test('compiledDocuments vouches for built, cleanly mapped documents only, and not for shared source names', () => {
  const good = loadRules(GOOD, 'good.yml');
  const broken = loadRules(BROKEN, 'broken.yml');
  const rules = [...good.rules, ...broken.rules];
  const built = { ...good, rules, diagnostics: [...good.diagnostics, ...broken.diagnostics] };
  const rs = compileRuleSet({ rules });
  assert.deepEqual(compiledDocuments(['good.yml', 'broken.yml'], built, rules, rs), [[0, 1, 2, 3], []]);
  // Rules the rule set never mapped (left out by a choice) are not vouched for.
  assert.deepEqual(compiledDocuments(['good.yml', 'broken.yml'], built, rules.slice(0, 2), rs), [[0, 1], []]);
  assert.equal(compiledDocuments(['x.yml', 'x.yml'], built, rules, rs), undefined);
});

test('the rule cache defers only what compiled: a broken rule is diagnosed on the cached run too', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-trusted-'));
  const rulesDir = join(dir, 'rules');
  mkdirSync(rulesDir);
  writeFileSync(join(rulesDir, 'a-good.yml'), GOOD);
  writeFileSync(join(rulesDir, 'b-broken.yml'), BROKEN);
  const cache = join(dir, 'cache');
  const run = async () => {
    const { loaded, ruleSet } = await loadSigmaRules({ ruleFiles: [rulesDir], cache });
    return {
      rules: loaded.rules.map((r) => r.title),
      diagnostics: loaded.diagnostics.map((d) => `${d.source.split('/').pop()} ${d.code}`),
      verdicts: verdicts(ruleSet),
    };
  };
  const hits = ruleCacheStats.hits;
  const first = await run();
  const second = await run();
  assert.equal(ruleCacheStats.hits, hits + 1);
  assert.deepEqual(first.rules, ['contains', 'regex', 'endswith', 'keyword']);
  assert.equal(first.diagnostics.length, 1);
  assert.match(first.diagnostics[0]!, /^b-broken\.yml /);
  assert.deepEqual(second, first);
});
