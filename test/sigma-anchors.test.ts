/**
 * The prefilter's anchors as clauses: what a regular expression must contain, cased literals,
 * `|contains|all` and `and` as several clauses; each a necessary condition (an event RE2 or
 * the glob matches always holds every clause), and rules gated by them keep their verdicts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RE2JS } from 're2js';
import { anchorKey, compileRuleSet, eventFromObject, loadRules, type SigmaRule } from '../src/sigma/index.js';
import { detectionAnchors } from '../src/sigma/ruleset/anchors.js';
import { regexLiterals } from '../src/sigma/ruleset/regex-literals.js';

const atLeast3 = (literal: string) => literal.length >= 3;

describe('literals a regular expression needs', () => {
  test('a concatenation needs its runs, an alternation one literal of each branch, a + group its content', () => {
    assert.deepEqual(regexLiterals('foo(bar|baz)+x', atLeast3), [['foo'], ['bar', 'baz']]);
    assert.deepEqual(regexLiterals(String.raw`\\Windows\\Temp\\[a-z]+\.exe`, atLeast3), [
      ['\\windows\\temp\\'],
      ['.exe'],
    ]);
    assert.deepEqual(regexLiterals('(?i)Invoke-(Expression|Command)', atLeast3), [
      ['invoke-'],
      ['expression', 'command'],
    ]);
    assert.deepEqual(regexLiterals('abcd|wxyz', atLeast3), [['abcd', 'wxyz']]);
    assert.deepEqual(regexLiterals('(?P<name>sekurlsa)::', atLeast3), [['sekurlsa']]);
    assert.deepEqual(regexLiterals('ab{2,}cdef', atLeast3), [['cdef']]);
  });

  test('optional parts, classes and short runs need nothing; unknown syntax gives up', () => {
    assert.deepEqual(regexLiterals('abcd?ef', atLeast3), [['abc']]);
    assert.equal(regexLiterals('(abcdef)?', atLeast3), undefined);
    assert.equal(regexLiterals('abcdef|', atLeast3), undefined, 'an empty branch needs nothing');
    assert.equal(regexLiterals(String.raw`[a-z]{3}\d+`, atLeast3), undefined);
    assert.equal(regexLiterals(String.raw`\Qabc.def\E`, atLeast3), undefined);
    assert.equal(regexLiterals('[[:alpha:]]abcdef', atLeast3), undefined, 'a nested class is not misread');
    assert.equal(regexLiterals('(?=abc)def', atLeast3), undefined);
    assert.equal(regexLiterals(String.raw`abc\1`, atLeast3), undefined);
    assert.equal(regexLiterals('abc)def', atLeast3), undefined, 'an unbalanced group gives up');
    assert.equal(regexLiterals('ab', atLeast3), undefined);
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
      const clauses = regexLiterals(p.replace(/^\(\?i\)/, ''), atLeast3)!;
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

test('short literals of rare symbols anchor (command-line obfuscation), short common ones do not', () => {
  const rules = loadRules(
    [
      ['carets', "CommandLine|contains: ['^^', ' c^md']"],
      ['backtick', "CommandLine|re: '\\w+`\\w+'"],
      ['switch', "CommandLine|contains: ['/c', '-e']"],
    ]
      .map(
        ([title, item]) =>
          `title: ${title}\nlogsource: {product: windows, category: process_creation}\ndetection:\n  s:\n    ${item}\n  condition: s\n`,
      )
      .join('---\n'),
    'short.yml',
  ).rules;
  const rs = compileRuleSet({ rules, options: { timingSample: 0 } });
  const literals = (title: string) =>
    rs.variants
      .filter((v) => v.rule.title === title)
      .map((v) => detectionAnchors(v.detection, {})?.map((c) => c.map((x) => x.literal)) ?? null);
  assert.deepEqual(literals('carets')[0], [['^^', ' c^md']]);
  assert.deepEqual(literals('backtick')[0], [['`']]);
  assert.equal(literals('switch')[0], null);
  const texts = ['cmd /c whoami', 'c^^m^^d /c echo', 'IN`V`o`Ke', 'powershell -e AAA'];
  const channel = 'Microsoft-Windows-Sysmon/Operational';
  const verdicts = texts.map((t) =>
    rs.match(eventFromObject({ EventID: 1, Channel: channel, CommandLine: t })).map((m) => m.rule.title),
  );
  assert.deepEqual(verdicts, [['switch'], ['carets', 'switch'], ['backtick'], ['switch']]);
});
