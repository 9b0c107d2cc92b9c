/**
 * The prefilter's anchors as clauses: what a regular expression must contain, cased literals,
 * `|contains|all` and `and` as several clauses; each a necessary condition (an event RE2 or
 * the glob matches always holds every clause), and rules gated by them keep their verdicts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RE2JS } from 're2js';
import { anchorKey, compileRuleSet, eventFromObject, loadRules, type SigmaRule } from '../src/sigma/index.js';
import { regexLiterals } from '../src/sigma/ruleset/regex-literals.js';

describe('literals a regular expression needs', () => {
  test('a concatenation needs its runs, an alternation one literal of each branch, a + group its content', () => {
    assert.deepEqual(regexLiterals('foo(bar|baz)+x', 3), [['foo'], ['bar', 'baz']]);
    assert.deepEqual(regexLiterals(String.raw`\\Windows\\Temp\\[a-z]+\.exe`, 3), [
      ['\\windows\\temp\\'],
      ['.exe'],
    ]);
    assert.deepEqual(regexLiterals('(?i)Invoke-(Expression|Command)', 3), [
      ['invoke-'],
      ['expression', 'command'],
    ]);
    assert.deepEqual(regexLiterals('abcd|wxyz', 3), [['abcd', 'wxyz']]);
    assert.deepEqual(regexLiterals('(?P<name>sekurlsa)::', 3), [['sekurlsa']]);
    assert.deepEqual(regexLiterals('ab{2,}cdef', 3), [['cdef']]);
  });

  test('optional parts, classes and short runs need nothing; unknown syntax gives up', () => {
    assert.deepEqual(regexLiterals('abcd?ef', 3), [['abc']]);
    assert.equal(regexLiterals('(abcdef)?', 3), undefined);
    assert.equal(regexLiterals('abcdef|', 3), undefined, 'an empty branch needs nothing');
    assert.equal(regexLiterals(String.raw`[a-z]{3}\d+`, 3), undefined);
    assert.equal(regexLiterals(String.raw`\Qabc.def\E`, 3), undefined);
    assert.equal(regexLiterals('[[:alpha:]]abcdef', 3), undefined, 'a nested class is not misread');
    assert.equal(regexLiterals('(?=abc)def', 3), undefined);
    assert.equal(regexLiterals(String.raw`abc\1`, 3), undefined);
    assert.equal(regexLiterals('abc)def', 3), undefined, 'an unbalanced group gives up');
    assert.equal(regexLiterals('ab', 3), undefined);
  });

  test('on random texts, every text RE2 matches holds each clause (folded), case-insensitive orbits too', () => {
    const patterns = [
      'foo(bar|baz)+x',
      '(?i)start-process.*hidden',
      String.raw`\\temp\\[^\\]+\.(exe|dll)$`,
      '(?i)kernel32',
      'a(bc)?defg|hij(kl)+',
      String.raw`(?i)\bnet\s+user\s+/add`,
    ];
    const alphabet = [
      'foo',
      'bar',
      'baz',
      'x',
      'Start-Process',
      'HIDDEN',
      '\\temp\\',
      'a.exe',
      '.dll',
      'ſtart-proceſs',
      'Kernel32',
      'kernel32',
      'abcdefg',
      'adefg',
      'hijkl',
      'net  user /add',
      ' ',
      '-',
    ];
    let state = 7;
    const rand = (n: number) => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % n;
    };
    let checked = 0;
    for (const p of patterns) {
      const clauses = regexLiterals(p.replace(/^\(\?i\)/, ''), 3)!;
      assert.ok(clauses !== undefined, p);
      const re = RE2JS.compile(p);
      for (let i = 0; i < 3000; i++) {
        const text = Array.from({ length: 1 + rand(6) }, () => alphabet[rand(alphabet.length)]).join('');
        if (!re.matcher(text).find()) continue;
        checked++;
        const folded = text.toLowerCase();
        const variants = [folded, folded.replaceAll('\u017f', 's')];
        for (const c of clauses)
          assert.ok(
            c.some((lit) => variants.some((v) => v.includes(lit))),
            `${p} matched ${JSON.stringify(text)} without ${JSON.stringify(c)}`,
          );
      }
    }
    assert.ok(checked > 500, `${checked} matching texts checked`);
  });
});

const rule = (detection: string): SigmaRule => {
  const r = loadRules(
    `title: t\nlogsource:\n  product: windows\n  service: security\ndetection:\n${detection}`,
    'r.yml',
  );
  assert.deepEqual(r.diagnostics, []);
  return r.rules[0]!;
};
const event = (fields: Record<string, unknown>) =>
  eventFromObject({ Channel: 'Security', EventID: 4688, ...fields });

describe('rules gated by clauses', () => {
  test('a |re rule is evaluated only on events holding its literals, and matches as before', () => {
    const rs = compileRuleSet({
      rules: [rule("  sel:\n    CommandLine|re: '(?i)invoke-(expression|webrequest)'\n  condition: sel")],
      options: { timingSample: 1 },
    });
    const verdict = (line: string) => rs.match(event({ CommandLine: line })).length;
    assert.equal(verdict('dir c:\\'), 0);
    assert.equal(verdict('powershell invoke-command'), 0);
    assert.equal(verdict('INVOKE-EXPRESSION $x'), 1);
    assert.equal(verdict('iwr; Invoke-WebRequest http://x'), 1);
    assert.equal(rs.stats()[0]!.evaluations, 2, 'the events without a literal of each clause were skipped');
  });

  test("RE2's ſ for s under (?i) still opens the gate", () => {
    const rs = compileRuleSet({
      rules: [rule("  sel:\n    CommandLine|re: '(?i)start-process'\n  condition: sel")],
    });
    assert.equal(rs.match(event({ CommandLine: 'ſtart-proceſs -x' })).length, 1);
  });

  test('|contains|all and cased values gate on each value, folded', () => {
    const rs = compileRuleSet({
      rules: [
        rule("  sel:\n    CommandLine|contains|all: ['mimikatz', 'sekurlsa']\n  condition: sel"),
        rule("  sel:\n    CommandLine|contains|cased: 'SQBFAFgA'\n  condition: sel"),
      ],
      options: { timingSample: 1 },
    });
    const titles = (line: string) => rs.match(event({ CommandLine: line })).length;
    assert.equal(titles('mimikatz only'), 0);
    assert.equal(titles('MIMIKATZ sekurlsa::logonpasswords'), 1);
    assert.equal(titles('-enc sqbfafga'), 0, 'cased: the gate opens, the test refuses');
    assert.equal(titles('-enc SQBFAFgA'), 1);
    const [all, cased] = rs.stats();
    assert.equal(all!.evaluations, 1);
    assert.equal(cased!.evaluations, 2);
  });
});

test('anchors a cache gives back in another shape (an older flat list) are computed anew', () => {
  const r = rule("  sel:\n    CommandLine|contains: 'mimikatz'\n  condition: sel");
  const first = compileRuleSet({ rules: [r] });
  const key = anchorKey(first.variants[0]!);
  for (const stale of [[{ field: 'CommandLine', literal: 'never-there' }], [[{ field: 1 }]], [[]], 'x']) {
    const rs = compileRuleSet({ rules: [r], options: { knownAnchors: new Map([[key, stale]]) } });
    assert.equal(rs.match(event({ CommandLine: 'x mimikatz y' })).length, 1, JSON.stringify(stale));
    assert.deepEqual(rs.takenAnchors().get(key), [[{ field: 'CommandLine', literal: 'mimikatz' }]]);
  }
});
