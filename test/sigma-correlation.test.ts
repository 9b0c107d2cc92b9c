/** Correlation rules evaluated over real rule matches of generated events (§1.10). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type BaseMatch,
  type CorrelationHit,
  correlate,
  eventFromObject,
  loadRules,
  reportsStandalone,
} from '../src/sigma/index.js';

const FAILED = `title: failed logon
name: failed_logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
`;
const SUCCESS = `title: successful logon
name: successful_logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4624}
  condition: selection
`;
const BYTES = `title: bytes sent
name: bytes_sent
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 5156}
  condition: selection
`;

const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

type Ev = Record<string, string | number> & { at: number };

/** Loads the rules and correlation, evaluates every event with every rule, and correlates. */
function run(correlation: string, events: readonly Ev[], extra = '') {
  const text = [FAILED, SUCCESS, BYTES, extra, correlation].filter(Boolean).join('---\n');
  const loaded = loadRules(text, 'correlation.yml');
  assert.deepEqual(loaded.diagnostics, []);
  const matches: BaseMatch[] = [];
  events.forEach((e, i) => {
    const { at, ...fields } = e;
    const event = eventFromObject(fields);
    for (const rule of loaded.rules)
      if (rule.matches(event)) matches.push({ rule, timestamp: T0 + at * MIN, event, recordId: i + 1 });
  });
  return {
    loaded,
    ...correlate({ correlations: loaded.correlations, matches, knownRules: loaded.rules }),
  };
}

const corr = (body: string, name = 'corr') => `title: ${name}\nname: ${name}\ncorrelation:\n${body}`;
const fail = (user: string, at: number, ip = '10.0.0.1'): Ev => ({
  EventID: 4625,
  TargetUserName: user,
  IpAddress: ip,
  at,
});
const ok = (user: string, at: number): Ev => ({ EventID: 4624, TargetUserName: user, at });
const summary = (hits: readonly CorrelationHit[]) =>
  hits.map((h) => ({ group: h.group, value: h.value, records: h.recordIds }));

describe('sigma correlations', () => {
  const brute = corr(`  type: event_count
  rules: [failed_logon]
  group-by: [TargetUserName]
  timespan: 5m
  condition: {gte: 3}
`);

  test('event_count fires once per burst per group, only within the timespan', () => {
    const { hits } = run(brute, [
      fail('alice', 0),
      fail('bob', 0),
      fail('alice', 2),
      fail('bob', 10),
      fail('alice', 4),
      fail('bob', 20),
      fail('alice', 5),
      fail('alice', 6),
      fail('alice', 7),
    ]);
    assert.deepEqual(summary(hits), [
      { group: { TargetUserName: 'alice' }, value: 3, records: [1, 3, 5] },
      { group: { TargetUserName: 'alice' }, value: 3, records: [7, 8, 9] },
    ]);
    assert.equal(hits[0]?.firstTimestamp, T0);
    assert.equal(hits[0]?.lastTimestamp, T0 + 4 * MIN);
  });

  test('matches are ordered by time whatever order they arrive in', () => {
    const { hits } = run(brute, [fail('alice', 9), fail('alice', 0), fail('alice', 8), fail('alice', 7)]);
    assert.deepEqual(summary(hits), [{ group: { TargetUserName: 'alice' }, value: 3, records: [4, 3, 1] }]);
  });

  test('value_count counts distinct values of the field per group (password spraying)', () => {
    const spray = corr(`  type: value_count
  rules: failed_logon
  group-by: [IpAddress]
  timespan: 10m
  condition: {field: TargetUserName, gt: 2}
`);
    const { hits } = run(spray, [
      fail('alice', 0, '10.0.0.9'),
      fail('alice', 1, '10.0.0.9'),
      fail('bob', 2, '10.0.0.9'),
      fail('carol', 3, '10.0.0.9'),
      fail('alice', 0, '10.0.0.5'),
      fail('bob', 1, '10.0.0.5'),
    ]);
    assert.deepEqual(summary(hits), [{ group: { IpAddress: '10.0.0.9' }, value: 3, records: [1, 2, 3, 4] }]);
  });

  test('temporal fires when every rule matched in the window, in any order', () => {
    const both = corr(`  type: temporal
  rules: [failed_logon, successful_logon]
  group-by: [TargetUserName]
  timespan: 10m
`);
    const { hits } = run(both, [ok('alice', 0), fail('alice', 3), fail('bob', 0), ok('bob', 11)]);
    assert.deepEqual(summary(hits), [{ group: { TargetUserName: 'alice' }, value: 2, records: [1, 2] }]);
    assert.deepEqual(hits[0]?.rules, ['successful_logon', 'failed_logon']);
  });

  test('temporal_ordered needs the listed order: failures followed by a success', () => {
    const ordered = corr(`  type: temporal_ordered
  rules: [failed_logon, successful_logon]
  group-by: [TargetUserName]
  timespan: 10m
`);
    const { hits } = run(ordered, [ok('alice', 0), fail('alice', 3), fail('bob', 0), ok('bob', 4)]);
    assert.deepEqual(summary(hits), [{ group: { TargetUserName: 'bob' }, value: 2, records: [3, 4] }]);
  });

  test('aliases read a different field per rule into one group-by name', () => {
    const aliased = corr(`  type: temporal
  rules: [failed_logon, successful_logon]
  aliases:
    account:
      failed_logon: TargetUserName
      successful_logon: SubjectUserName
  group-by: [account]
  timespan: 10m
`);
    const { hits } = run(aliased, [
      fail('alice', 0),
      { EventID: 4624, SubjectUserName: 'alice', TargetUserName: 'other', at: 1 },
    ]);
    assert.deepEqual(summary(hits), [{ group: { account: 'alice' }, value: 2, records: [1, 2] }]);
  });

  test('value_sum, value_avg, value_median and value_percentile aggregate a numeric field', () => {
    const ev = (bytes: string, at: number): Ev => ({ EventID: 5156, Host: 'h1', Bytes: bytes, at });
    const events = [ev('100', 0), ev('0x64', 1), ev('700', 2), ev('n/a', 3), ev('300', 4)];
    const kinds = {
      value_sum: { cond: 'gte: 1200', value: 1200 },
      value_avg: { cond: 'gt: 299', value: 300 },
      value_median: { cond: 'eq: 200', value: 200 },
      value_percentile: { cond: 'gte: 580, percentile: 90', value: 300 + 0.7 * 400 },
    };
    for (const [type, { cond, value }] of Object.entries(kinds)) {
      const c = corr(
        `  type: ${type}\n  rules: [bytes_sent]\n  group-by: [Host]\n  timespan: 1h\n  condition: {field: Bytes, ${cond}}\n`,
      );
      const { hits } = run(c, events);
      assert.equal(hits.length, 1, type);
      assert.ok(Math.abs(hits[0]!.value - value) < 1e-9, `${type}: ${hits[0]!.value}`);
    }
  });

  test('an upper bound is judged when the window closes, not at the first match', () => {
    const quiet = corr(`  type: event_count
  rules: [failed_logon]
  group-by: [TargetUserName]
  timespan: 10m
  condition: {gte: 2, lte: 3}
`);
    const { hits } = run(quiet, [
      ...[0, 1, 2, 3, 4].map((m) => fail('alice', m)),
      fail('bob', 0),
      fail('bob', 5),
      fail('carol', 0),
    ]);
    assert.deepEqual(summary(hits), [{ group: { TargetUserName: 'bob' }, value: 2, records: [6, 7] }]);
  });

  test("a boolean temporal condition with 'not' needs the whole window", () => {
    const noSuccess = corr(`  type: temporal
  rules: [failed_logon, successful_logon]
  group-by: [TargetUserName]
  timespan: 10m
  condition: failed_logon and not successful_logon
`);
    const { hits } = run(noSuccess, [fail('alice', 0), ok('alice', 5), fail('bob', 0)]);
    assert.deepEqual(summary(hits), [{ group: { TargetUserName: 'bob' }, value: 1, records: [3] }]);
  });

  test('a correlation of correlation hits runs after the inner one (chaining)', () => {
    const outer = corr(
      `  type: event_count
  rules: [corr]
  group-by: [TargetUserName]
  timespan: 1h
  condition: {gte: 2}
`,
      'outer',
    );
    const { hits } = run(
      brute,
      [0, 1, 2, 20, 21, 22].map((m) => fail('alice', m)),
      outer,
    );
    assert.deepEqual(
      hits.map((h) => [h.correlation.name, h.value]),
      [
        ['corr', 3],
        ['outer', 2],
        ['corr', 3],
      ],
    );
  });

  test('unknown references and loops are reported and those correlations do not run', () => {
    const loop = `${corr('  type: event_count\n  rules: [b]\n  timespan: 1h\n  condition: {gte: 1}\n', 'a')}---\n${corr('  type: event_count\n  rules: [a]\n  timespan: 1h\n  condition: {gte: 1}\n', 'b')}`;
    const missing = corr(
      '  type: event_count\n  rules: [nowhere]\n  timespan: 1h\n  condition: {gte: 1}\n',
      'm',
    );
    const { hits, diagnostics } = run(missing, [fail('alice', 0)], loop);
    assert.deepEqual(hits, []);
    assert.deepEqual(diagnostics.map((d) => [d.title, d.code]).sort(), [
      ['a', 'correlation.reference'],
      ['b', 'correlation.cycle'],
      ['m', 'correlation.reference'],
    ]);
  });

  test('generate decides whether the correlated rules are reported on their own', () => {
    const { loaded } = run(brute, []);
    const standalone = reportsStandalone(loaded.correlations);
    assert.equal(standalone({ name: 'failed_logon' }), false);
    assert.equal(standalone({ name: 'successful_logon' }), true);
    const generating = run(brute.replace('  condition', '  generate: true\n  condition'), []);
    assert.equal(reportsStandalone(generating.loaded.correlations)({ name: 'failed_logon' }), true);
  });

  test('base matches beyond the limit are counted in a diagnostic, not kept', () => {
    const loaded = loadRules(`${FAILED}---\n${brute}`, 'c.yml');
    const event = eventFromObject({ EventID: 4625, TargetUserName: 'x' });
    const matches = [0, 1, 2, 3].map((i) => ({ rule: loaded.rules[0]!, timestamp: T0 + i, event }));
    const r = correlate({ correlations: loaded.correlations, matches, maxMatches: 2 });
    assert.equal(r.hits.length, 0);
    assert.equal(r.diagnostics[0]?.code, 'correlation.limit');
    assert.match(r.diagnostics[0]!.message, /^2 base matches/);
  });
});
