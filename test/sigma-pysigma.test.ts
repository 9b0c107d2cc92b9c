/** The pySigma examples quoted in sigma-semantics.md (§1.4, §1.6, §1.8), against our engine. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ANY,
  base64OffsetVariants,
  type Condition,
  ONE,
  parseCondition,
  parseSigmaString,
  selectNames,
  windashVariants,
} from '../src/sigma/index.js';
import { compile, matches } from './sigma-fixtures/rules.js';

const R = String.raw;

describe('escape scan (pySigma test_strings_escaping*)', () => {
  test('\\*, \\? and \\\\ are escapes; unescaped * and ? are wildcards', () => {
    assert.deepEqual(parseSigmaString(R`escaped\*\?\\*?`), ['escaped*?\\', ANY, ONE]);
  });
  test('a backslash before a non-special character stays', () => {
    assert.deepEqual(parseSigmaString(R`escaped\nonspecial`), [R`escaped\nonspecial`]);
  });
  test('a trailing lone backslash is literal', () => {
    assert.deepEqual(parseSigmaString('finalescape\\'), ['finalescape\\']);
  });
  test('|endswith on a value ending in a backslash keeps the backslash', () => {
    const rule = compile("sel:\n  P|endswith: 'C:\\Windows\\'\ncondition: sel");
    assert.equal(matches(rule, { P: 'D:\\x\\C:\\Windows\\' }), true);
    assert.equal(matches(rule, { P: 'C:\\Windows' }), false);
  });
  test('a device path of escaped backslashes and an escaped ? is fully literal', () => {
    assert.deepEqual(parseSigmaString(R`\\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy`), [
      R`\\?\GLOBALROOT\Device\HarddiskVolumeShadowCopy`,
    ]);
  });
  test('\\*.rar\\ in a path is a literal star, as the spec reads it', () => {
    assert.deepEqual(parseSigmaString('\\AppData\\local\\temp\\*.rar\\'), ['\\AppData\\local\\temp*.rar\\']);
  });
});

describe('windash (pySigma test_windash)', () => {
  test('-param-1 -param2 gives 25 variants and leaves the inner dash alone', () => {
    const variants = windashVariants(parseSigmaString('-param-1 -param2')).map((v) => v.join(''));
    assert.equal(variants.length, 25);
    assert.equal(new Set(variants).size, 25);
    assert.ok(variants.every((v) => v.includes('param-1')));
    assert.ok(variants.includes('/param-1 \u2015param2'));
  });
  test('--force varies only its second dash', () => {
    const variants = windashVariants(parseSigmaString('--force')).map((v) => v.join(''));
    assert.deepEqual(variants, ['--force', '-/force', '-\u2013force', '-\u2014force', '-\u2015force']);
  });
});

describe('base64offset (pySigma test_base64offset, test_wide)', () => {
  test('foobar gives its three offset encodings', () => {
    assert.deepEqual(base64OffsetVariants(new TextEncoder().encode('foobar')), [
      'Zm9vYmFy',
      'Zvb2Jhc',
      'mb29iYX',
    ]);
  });
  test('wide Invoke- gives the three UTF-16LE offset encodings', () => {
    assert.deepEqual(base64OffsetVariants(new Uint8Array(Buffer.from('Invoke-', 'utf16le'))), [
      'SQBuAHYAbwBrAGUALQ',
      'kAbgB2AG8AawBlAC0A',
      'JAG4AdgBvAGsAZQAtA',
    ]);
  });
});

describe('conditions (pySigma test_conditions)', () => {
  const id = (name: string): Condition => ({ kind: 'identifier', name });
  test('precedence: (d1 and not d2) or (not d3 and d4)', () => {
    assert.deepEqual(parseCondition('detection1 and not detection2 or not detection3 and detection_4'), {
      kind: 'or',
      args: [
        { kind: 'and', args: [id('detection1'), { kind: 'not', arg: id('detection2') }] },
        { kind: 'and', args: [{ kind: 'not', arg: id('detection3') }, id('detection_4')] },
      ],
    });
  });
  test('parentheses override precedence', () => {
    assert.deepEqual(parseCondition('detection1 and not (detection2 or detection3)'), {
      kind: 'and',
      args: [
        id('detection1'),
        { kind: 'not', arg: { kind: 'or', args: [id('detection2'), id('detection3')] } },
      ],
    });
  });
  test('1 of, any of and all of parse to selectors; them has no pattern', () => {
    assert.deepEqual(parseCondition('1 of sel_* and any of them and all of filter'), {
      kind: 'and',
      args: [
        { kind: 'selector', quantifier: 'one', pattern: 'sel_*' },
        { kind: 'selector', quantifier: 'one', pattern: null },
        { kind: 'selector', quantifier: 'all', pattern: 'filter' },
      ],
    });
  });
  test('1 of selection does not pull in selection_extra', () => {
    assert.deepEqual(selectNames('selection', ['selection', 'selection_extra']), ['selection']);
    assert.deepEqual(selectNames('selection*', ['selection', 'selection_extra', '_selection']), [
      'selection',
      'selection_extra',
    ]);
  });
  test('them and patterns skip _identifiers unless the pattern starts with _', () => {
    assert.deepEqual(selectNames(null, ['a', '_b']), ['a']);
    assert.deepEqual(selectNames('_*', ['a', '_b']), ['_b']);
  });
  test('upper-case OR is a syntax error', () => {
    assert.throws(() => parseCondition('detection1 and (detection2 OR detection3)'), {
      code: 'condition.syntax',
    });
  });
  test('the deprecated pipe aggregation is an error', () => {
    assert.throws(() => parseCondition('selection | count(dst_ip) by src_ip > 10'), {
      code: 'condition.aggregation',
    });
  });
  test('dangling operators and unbalanced parentheses are syntax errors', () => {
    for (const c of ['sel and', '(sel', 'sel)', 'not', '1 of', 'all sel', 'sel_*', 'a b'])
      assert.throws(() => parseCondition(c), { code: 'condition.syntax' }, c);
  });
});
