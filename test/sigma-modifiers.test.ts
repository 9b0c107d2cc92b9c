/** Every modifier beyond the conformance cases: encodings, regex flags, typed tests, expand. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventFromNested, eventFromObject, MODIFIERS } from '../src/sigma/index.js';
import { compile, matches, rejection } from './sigma-fixtures/rules.js';

const one = (key: string, value: string) => compile(`sel:\n  ${key}: ${value}\ncondition: sel`);

describe('sigma modifiers', () => {
  test('the registry holds every spec v2.1 modifier and pySigma alias', () => {
    const names = [
      'contains',
      'startswith',
      'endswith',
      'all',
      'base64',
      'base64offset',
      'utf16le',
      'utf16be',
    ];
    names.push('utf16', 'wide', 'windash', 're', 'i', 'm', 's', 'ignorecase', 'multiline', 'dotall', 'cidr');
    names.push('exists', 'expand', 'fieldref', 'gt', 'gte', 'lt', 'lte', 'neq', 'cased');
    names.push('minute', 'hour', 'day', 'week', 'month', 'year');
    for (const n of names) assert.ok(n in MODIFIERS, n);
  });

  test('startswith and endswith anchor one side only', () => {
    const starts = one('V|startswith', "'ab'");
    assert.equal(matches(starts, { V: 'ABc' }), true);
    assert.equal(matches(starts, { V: 'cab' }), false);
    const ends = one('V|endswith', "'ab'");
    assert.equal(matches(ends, { V: 'cAB' }), true);
    assert.equal(matches(ends, { V: 'abc' }), false);
  });

  test('cased makes the comparison case-sensitive', () => {
    const rule = one('V|cased', "'Abc'");
    assert.equal(matches(rule, { V: 'Abc' }), true);
    assert.equal(matches(rule, { V: 'abc' }), false);
  });

  test('base64 and the UTF-16 encodings produce case-sensitive base64 literals', () => {
    assert.equal(matches(one('V|base64|contains', "'abc'"), { V: 'xxYWJjyy' }), true);
    assert.equal(matches(one('V|base64|contains', "'abc'"), { V: 'xxywjjyy' }), false);
    assert.equal(matches(one('V|utf16le|base64', "'a'"), { V: 'YQA=' }), true);
    assert.equal(matches(one('V|utf16be|base64', "'a'"), { V: 'AGE=' }), true);
    assert.equal(matches(one('V|utf16|base64', "'a'"), { V: '//5hAA==' }), true);
  });

  test('re flags: s lets . cross lines, m anchors ^ at lines, i ignores case', () => {
    assert.equal(matches(one('V|re', "'a.b'"), { V: 'a\nb' }), false);
    assert.equal(matches(one('V|re|s', "'a.b'"), { V: 'a\nb' }), true);
    assert.equal(matches(one('V|re', "'(?s)a.b'"), { V: 'a\nb' }), true);
    assert.equal(matches(one('V|re', "'^b'"), { V: 'a\nb' }), false);
    assert.equal(matches(one('V|re|m', "'^b'"), { V: 'a\nb' }), true);
    assert.equal(matches(one('V|re|ignorecase', "'AB'"), { V: 'ab' }), true);
  });

  test('re accepts the corpus dialect (\\d, lazy quantifiers, (?:), escaped quotes) and rejects lookaround', () => {
    assert.equal(matches(one('V|re', String.raw`'\d{2,3}?x(?:\"|y)'`), { V: 'a12x"' }), true);
    assert.equal(rejection("sel:\n  V|re: '(?<=a)b'\ncondition: sel"), 'value.invalid_regex');
    assert.equal(rejection("sel:\n  V|re: 'a(b'\ncondition: sel"), 'value.invalid_regex');
    assert.equal(rejection("sel:\n  V|i: 'a'\ncondition: sel"), 'value.invalid_type');
  });

  test('cidr: a bare address is a /32, IPv6 host bits are rejected, zone ids are ignored', () => {
    const host = one('Ip|cidr', "'10.0.0.1'");
    assert.equal(matches(host, { Ip: '10.0.0.1' }), true);
    assert.equal(matches(host, { Ip: '10.0.0.2' }), false);
    assert.equal(matches(one('Ip|cidr', "'fe80::/10'"), { Ip: 'fe80::1%12' }), true);
    assert.equal(matches(one('Ip|cidr', "'::ffff:0:0/96'"), { Ip: '::ffff:10.1.2.3' }), true);
    assert.equal(rejection("sel:\n  Ip|cidr: 'fe80::1/10'\ncondition: sel"), 'value.invalid_cidr');
    assert.equal(rejection("sel:\n  Ip|cidr: '10.0.0.0/33'\ncondition: sel"), 'value.invalid_cidr');
    assert.equal(
      rejection("sel:\n  Ip|contains|cidr: '10.0.0.0/8'\ncondition: sel"),
      'modifier.invalid_combination',
    );
  });

  test('gt, lt and lte compare numbers; hex event values are read', () => {
    assert.equal(matches(one('N|gt', '5'), { N: 6 }), true);
    assert.equal(matches(one('N|gt', '5'), { N: '5' }), false);
    assert.equal(matches(one('N|lt', '0x10'), { N: '15' }), true);
    assert.equal(matches(one('N|lte', '16'), { N: '0x10' }), true);
    assert.equal(matches(one('N|lte', "'16'"), { N: '17' }), false);
  });

  test('date parts read an ISO timestamp as written', () => {
    const ts = { T: '2024-05-06 12:34:56.789' };
    assert.equal(matches(one('T|year', '2024'), ts), true);
    assert.equal(matches(one('T|month', '5'), ts), true);
    assert.equal(matches(one('T|day', '6'), ts), true);
    assert.equal(matches(one('T|hour', '12'), ts), true);
    assert.equal(matches(one('T|minute', '34'), ts), true);
    assert.equal(matches(one('T|week', '19'), ts), true);
    assert.equal(matches(one('T|hour', '13'), { T: '2024-05-06T12:00:00.0000000Z' }), false);
  });

  test('exists accepts yes/no and needs a field', () => {
    assert.equal(matches(one('F|exists', 'yes'), { F: null }), true);
    assert.equal(matches(one('F|exists', 'no'), { F: null }), false);
    assert.equal(rejection('sel:\n  F|exists: maybe\ncondition: sel'), 'value.invalid_type');
    assert.equal(
      rejection('sel:\n  F|contains|exists: true\ncondition: sel'),
      'modifier.invalid_combination',
    );
  });

  test('expand substitutes every configured value, wildcards honoured; \\% stays literal', () => {
    const placeholders = { Admins: ['root', 'adm_*'] };
    const rule = compile("sel:\n  User|expand: '%Admins%'\ncondition: sel", { placeholders });
    assert.equal(matches(rule, { User: 'ROOT' }), true);
    assert.equal(matches(rule, { User: 'adm_bob' }), true);
    assert.equal(matches(rule, { User: 'bob' }), false);
    const escaped = compile("sel:\n  V|expand: '\\%Admins%'\ncondition: sel", { placeholders });
    assert.equal(matches(escaped, { V: '%Admins%' }), true);
  });

  test('fieldref with contains, startswith and endswith', () => {
    const contains = one('A|fieldref|contains', 'B');
    assert.equal(matches(contains, { A: 'xxBoByy', B: 'bob' }), true);
    assert.equal(matches(contains, { A: 'xx', B: 'bob' }), false);
    assert.equal(matches(contains, { A: 'xx' }), false);
    assert.equal(matches(one('A|fieldref|startswith', 'B'), { A: 'bob1', B: 'bob' }), true);
    assert.equal(matches(one('A|fieldref|endswith', 'B'), { A: 'bob1', B: 'bob' }), false);
  });

  test('neq combines with other modifiers and negates the whole item', () => {
    const rule = one('V|contains|neq', "['a', 'b']");
    assert.equal(matches(rule, { V: 'xyz' }), true);
    assert.equal(matches(rule, { V: 'xbz' }), false);
  });

  test('numbers compare by text or numerically; booleans as lower-case text', () => {
    assert.equal(matches(one('L', '4'), { L: '04' }), true);
    assert.equal(matches(one('L', '4'), { L: '4.0' }), true);
    assert.equal(matches(one('L', '4'), { L: '0x4' }), false);
    assert.equal(matches(one('B', 'false'), { B: false }), true);
    assert.equal(matches(one('B', 'false'), { B: 'False' }), true);
  });

  test('keywords: numbers and |contains keywords, and wildcards inside keywords', () => {
    assert.equal(matches(compile('kw:\n  - 4688\ncondition: kw'), { X: 'id 4688 seen' }), true);
    assert.equal(
      matches(compile("kw:\n  '|startswith': 'abc'\ncondition: kw"), { X: 'zz', Y: 'ABCd' }),
      true,
    );
    assert.equal(matches(compile("kw:\n  - 'a*c'\ncondition: kw"), { X: 'xxabbbcxx' }), true);
    assert.equal(rejection('kw:\n  - null\ncondition: kw'), 'value.invalid_type');
  });

  test('dotted names are literal keys in flat events and paths in nested ones', () => {
    const rule = one('actor.alternateId|endswith', "'@example.com'");
    assert.equal(rule.matches(eventFromObject({ 'actor.alternateId': 'a@example.com' })), true);
    assert.equal(rule.matches(eventFromNested({ actor: { alternateId: 'a@example.com' } })), true);
    assert.equal(rule.matches(eventFromObject({ actor: { alternateId: 'a@example.com' } })), false);
  });

  test('an empty value list means null', () => {
    const rule = one('V', '[]');
    assert.equal(matches(rule, {}), true);
    assert.equal(matches(rule, { V: 'x' }), false);
    assert.equal(matches(rule, { V: [] }), true);
  });
});
