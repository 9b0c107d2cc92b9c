/**
 * What loading shares between rules to load a large set faster (detection.ts, metadata.ts,
 * logsource/map-rule.ts, logsource/variant.ts): condition trees parsed once per text, the
 * parser's lists kept as a rule's tags and values, log sources resolved once per logsource,
 * variants made by one class. Each rule still reads as if loaded alone: its own metadata in the
 * same key order, its own verdicts, its own diagnostics, its variants' answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileRuleSet, eventFromObject, loadRules, mapRule } from '../src/sigma/index.js';

const rule = (title: string, logsource: string, user: string, condition = 'sel and not filter') =>
  `title: ${title}\nlogsource:\n${logsource}\ndetection:\n  sel:\n    TargetUserName: ${user}\n  filter:\n    IpAddress: '-'\n  condition: ${condition}\n`;
const SECURITY = '  product: windows\n  service: security';

test('rules with the same condition text match on their own selections', () => {
  const { rules, diagnostics } = loadRules(
    [rule('alice', SECURITY, 'alice'), rule('bob', SECURITY, 'bob')].join('---\n'),
    'r.yml',
  );
  assert.deepEqual(diagnostics, []);
  assert.equal(rules[0]!.detection.condition, rules[1]!.detection.condition, 'one tree for one text');
  const rs = compileRuleSet({ rules });
  const match = (user: string) =>
    rs.match(
      eventFromObject({ Channel: 'Security', EventID: 4624, TargetUserName: user, IpAddress: '10.0.0.1' }),
    );
  assert.deepEqual(
    match('bob').map((m) => m.rule.title),
    ['bob'],
  );
  assert.deepEqual(
    match('alice').map((m) => m.rule.title),
    ['alice'],
  );
});

test('a condition that does not parse is diagnosed every time it is loaded', () => {
  for (let i = 0; i < 2; i++) {
    const { rules, diagnostics } = loadRules(rule('broken', SECURITY, 'x', 'sel and and'), 'b.yml');
    assert.equal(rules.length, 0);
    assert.equal(diagnostics[0]?.code, 'condition.syntax');
  }
});

test("a rule's metadata keeps its keys in the documented order, lists as written", () => {
  const text = `license: MIT\nlevel: high\nstatus: test\nid: 1\ntitle: t\ntags: [a, 2]\nreferences: [r]\n${rule('x', SECURITY, 'y').split('\n').slice(1).join('\n')}`;
  const [r] = loadRules(text, 'm.yml').rules;
  assert.deepEqual(Object.keys(r!).slice(0, 13), [
    'title',
    'tags',
    'references',
    'falsepositives',
    'fields',
    'related',
    'source',
    'document',
    'raw',
    'id',
    'status',
    'level',
    'license',
  ]);
  assert.deepEqual([r!.tags, r!.references, r!.falsepositives, r!.id], [['a', '2'], ['r'], [], '1']);
});

test('log sources resolved once still name each rule and its own logsource text in diagnostics', () => {
  const { rules } = loadRules(
    [rule('one', '  product: Linux', 'a'), rule('two', '  product: linux', 'b')].join('---\n'),
    'l.yml',
  );
  const messages = rules.map((r) => {
    const m = mapRule(r);
    return m.ok ? '' : `${m.diagnostic.title}: ${m.diagnostic.message}`;
  });
  assert.deepEqual(messages, [
    "one: product 'Linux' is not a Windows event log",
    "two: product 'linux' is not a Windows event log",
  ]);
});

test("a rule's variants answer as before: test, accepts, matches and their rendered rule", () => {
  const [alice] = loadRules(rule('alice', SECURITY, 'alice'), 'v.yml').rules;
  const mapping = mapRule(alice!);
  assert.ok(mapping.ok);
  const [variant] = mapping.variants;
  const event = eventFromObject({
    Channel: 'Security',
    EventID: 4624,
    TargetUserName: 'alice',
    IpAddress: '1',
  });
  const other = eventFromObject({
    Channel: 'System',
    EventID: 4624,
    TargetUserName: 'alice',
    IpAddress: '1',
  });
  assert.equal(variant!.name, 'security');
  assert.deepEqual([variant!.accepts(event), variant!.accepts(other)], [true, false]);
  assert.deepEqual([variant!.matches(event), variant!.matches(other)], [true, false]);
  assert.equal(typeof variant!.test, 'function');
  const [again] = loadRules(variant!.renderYaml().join('\n'), 'again.yml').rules;
  assert.deepEqual([again!.matches(event), again!.matches(other)], [true, false]);
});
