/** Loading: documents, metadata, diagnostics, correlation and filter models. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventFromObject, loadRules, YamlNumber } from '../src/sigma/index.js';
import { compile, loadDetection, matches, rejection, ruleText } from './sigma-fixtures/rules.js';

const CORRELATION = `title: Many failed logins then a success
id: 00000000-0000-0000-0000-0000000000c1
name: brute_force_success
level: high
correlation:
  type: temporal_ordered
  rules:
    - failed_login
    - successful_login
  group-by:
    - User
  timespan: 10m
  aliases:
    User:
      failed_login: TargetUserName
      successful_login: TargetUserName
`;

const FILTER = `title: Not the domain controllers
logsource:
  product: windows
filter:
  rules:
    - 00000000-0000-0000-0000-000000000001
  selection:
    ComputerName|startswith: 'DC'
  condition: not selection
`;

describe('sigma loading', () => {
  test('a multi-document file yields typed rules, correlations and filters', () => {
    const r = loadRules(
      `${ruleText('sel:\n  a: x\ncondition: sel')}---\n${CORRELATION}---\n${FILTER}`,
      'multi.yml',
    );
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.rules.length, 1);
    const [c] = r.correlations;
    assert.equal(c?.type, 'temporal_ordered');
    assert.deepEqual(c?.rules, ['failed_login', 'successful_login']);
    assert.deepEqual(c?.groupBy, ['User']);
    assert.equal(c?.timespanMs, 600_000);
    assert.equal(c?.aliases.get('User')?.get('failed_login'), 'TargetUserName');
    assert.equal(c?.generate, false);
    assert.equal(c?.condition, undefined);
    const [f] = r.filters;
    assert.deepEqual(f?.rules, ['00000000-0000-0000-0000-000000000001']);
    assert.equal(f?.matches(eventFromObject({ ComputerName: 'DC01' })), false);
    assert.equal(f?.matches(eventFromObject({ ComputerName: 'WS01' })), true);
  });

  test('metadata is typed and plain numbers keep their source text in the detection model', () => {
    const text = `${ruleText('sel:\n  Details|contains: 00000429\ncondition: sel')}status: test\nlevel: HIGH\ntags:\n  - attack.t1059\ndate: 2024-01-02\n`;
    const [rule] = loadRules(text, 'meta.yml').rules;
    assert.equal(rule?.status, 'test');
    assert.equal(rule?.level, 'high');
    assert.equal(rule?.date, '2024-01-02');
    assert.deepEqual(rule?.tags, ['attack.t1059']);
    assert.deepEqual(rule?.logsource, { product: 'test', extra: {} });
    const value = rule?.detection.identifiers.get('sel');
    assert.ok(value?.kind === 'all');
    const v = value.items[0]?.values[0];
    assert.ok(v instanceof YamlNumber);
    assert.equal(v.text, '00000429');
  });

  test('one bad document does not reject its neighbours, and the diagnostic names the rule', () => {
    const good = ruleText('sel:\n  a: x\ncondition: sel', 'good');
    const bad = ruleText('sel:\n  a|nope: x\ncondition: sel', 'bad');
    const r = loadRules(`${good}---\n${bad}---\n${good}`, 'mixed.yml');
    assert.equal(r.rules.length, 2);
    assert.deepEqual(r.diagnostics, [
      {
        source: 'mixed.yml',
        document: 1,
        ruleId: '00000000-0000-0000-0000-000000000001',
        title: 'bad',
        code: 'modifier.unknown',
        message: "unknown modifier 'nope'",
      },
    ]);
  });

  test('a YAML syntax error in one document leaves the others loadable', () => {
    const good = ruleText('sel:\n  a: x\ncondition: sel');
    const r = loadRules(`${good}---\ntitle: broken\ndetection: [unclosed\n---\n${good}`, 'syntax.yml');
    assert.equal(r.rules.length, 2);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.document]),
      [['yaml.syntax', 1]],
    );
  });

  test('structural problems have their own codes', () => {
    assert.equal(loadRules('- a\n- b', 'x.yml').diagnostics[0]?.code, 'rule.not_mapping');
    assert.equal(loadRules('title: t\nfoo: bar', 'x.yml').diagnostics[0]?.code, 'rule.unknown_type');
    assert.equal(
      loadRules('logsource: {product: x}\ndetection: {sel: {a: 1}, condition: sel}', 'x.yml').diagnostics[0]
        ?.code,
      'rule.missing_field',
    );
    assert.equal(
      loadRules(`${ruleText('sel:\n  a: 1\ncondition: sel')}level: severe\n`, 'x.yml').diagnostics[0]?.code,
      'rule.invalid_field',
    );
    assert.equal(
      loadRules('title: t\nlogsource: {product: x}\ndetection:\n  sel: {a: 1}\n', 'x.yml').diagnostics[0]
        ?.code,
      'rule.missing_field',
    );
    assert.equal(rejection('sel: {}\ncondition: sel'), 'detection.invalid');
    assert.equal(rejection('sel:\n  a:\n    b: c\ncondition: sel'), 'value.invalid_type');
    assert.equal(rejection('sel:\n  a: x\ncondition: 1 of nothing_*'), 'condition.empty_selector');
    assert.equal(loadRules('title: t\na: 1\na: 2', 'x.yml').diagnostics[0]?.code, 'yaml.syntax');
  });

  test('a condition list ORs its conditions', () => {
    const rule = compile('a:\n  x: 1\nb:\n  y: 1\ncondition:\n  - a\n  - b');
    assert.equal(matches(rule, { y: 1 }), true);
    assert.equal(matches(rule, { z: 1 }), false);
  });

  test('a scalar search identifier is a single keyword', () => {
    const rule = compile("kw: 'mimikatz'\ncondition: kw");
    assert.equal(matches(rule, { CommandLine: 'run MIMIKATZ.exe' }), true);
  });

  test('rules count their evaluations and matches', () => {
    const rule = compile('sel:\n  a: x\ncondition: sel');
    matches(rule, { a: 'x' });
    matches(rule, { a: 'y' });
    assert.equal(rule.stats.evaluations, 2);
    assert.equal(rule.stats.matches, 1);
  });

  test('loading never throws: the first error of each rule is reported', () => {
    const r = loadDetection("sel:\n  a|re: '('\n  b|cidr: 'nope'\ncondition: sel");
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.diagnostics[0]?.code, 'value.invalid_regex');
  });
});

describe('sigma correlation and filter validation', () => {
  const correlation = (body: string) => loadRules(`title: c\ncorrelation:\n${body}`, 'c.yml');

  test('thresholds: a range is accepted as a conjunction (spec), value_* need a field', () => {
    const ok = correlation(
      '  type: event_count\n  rules: [a]\n  timespan: 1h\n  condition:\n    gt: 100\n    lte: 200\n',
    );
    assert.deepEqual(ok.correlations[0]?.condition, {
      tests: [
        { op: 'gt', value: 100 },
        { op: 'lte', value: 200 },
      ],
    });
    const noField = correlation(
      '  type: value_count\n  rules: [a]\n  timespan: 1h\n  condition:\n    gte: 3\n',
    );
    assert.equal(noField.diagnostics[0]?.code, 'correlation.invalid');
    const field = correlation(
      '  type: value_count\n  rules: [a]\n  timespan: 1h\n  condition:\n    gte: 3\n    field: User\n',
    );
    assert.equal(field.correlations[0]?.type, 'value_count');
  });

  test('type, rules and timespan are required and checked', () => {
    for (const body of [
      '  type: nope\n  rules: [a]\n  timespan: 1h\n  condition: {gte: 1}\n',
      '  type: event_count\n  timespan: 1h\n  condition: {gte: 1}\n',
      '  type: event_count\n  rules: [a]\n  condition: {gte: 1}\n',
      '  type: event_count\n  rules: [a]\n  timespan: 10x\n  condition: {gte: 1}\n',
      '  type: event_count\n  rules: [a]\n  timespan: 1h\n',
    ])
      assert.equal(correlation(body).diagnostics[0]?.code, 'correlation.invalid', body);
  });

  test('temporal correlations accept a boolean expression over their rules', () => {
    const ok = correlation('  type: temporal\n  rules: [a, b]\n  timespan: 5m\n  condition: a and not b\n');
    assert.equal(ok.diagnostics.length, 0);
    const bad = correlation('  type: temporal\n  rules: [a, b]\n  timespan: 5m\n  condition: a and c\n');
    assert.equal(bad.diagnostics[0]?.code, 'condition.unknown_identifier');
  });

  test('a filter needs rules (any is allowed) and a single condition', () => {
    const any = loadRules(FILTER.replace(/rules:\n.*\n/, 'rules: any\n'), 'f.yml');
    assert.equal(any.filters[0]?.rules, 'any');
    const none = loadRules(FILTER.replace(/ {2}rules:\n.*\n/, ''), 'f.yml');
    assert.equal(none.diagnostics[0]?.code, 'filter.invalid');
  });
});
