import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { YaraEngine, yaraRuleChecker } from '../src/yara/index.js';

const engine = new YaraEngine({ threads: 1 });
after(() => engine.close());

const SOURCES = [
  'rule ok { strings: $a = "abc" condition: $a }',
  'rule unused { strings: $a = "abc" $b = "x" condition: $a }',
  'import "magic" rule m { condition: true }',
  'rule v { condition: filename == "x.exe" }',
  'include "/etc/hostname"\nrule i { condition: true }',
  'rule a { condition: true } rule a { condition: false }',
];

describe('yaraRuleChecker (the rule library seam)', () => {
  test('the id names the yara-x build and the declared variables', () => {
    assert.equal(yaraRuleChecker().id, 'yara-x 1.20 (@litko/yara-x-linux-x64-gnu 0.7.2)');
    assert.equal(
      yaraRuleChecker({ variables: { filepath: '', filename: '' } }).id,
      'yara-x 1.20 (@litko/yara-x-linux-x64-gnu 0.7.2) variables: filename,filepath',
    );
  });

  test('a rejected source carries every error report as the message', () => {
    const r = yaraRuleChecker().check(
      'rule u { strings: $a = "abc" $b = "x" condition: $a } rule w { condition: nope }',
    );
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(
      r.errors.map((e) => e.code),
      ['E022', 'E009'],
    );
    assert.match(
      r.message,
      /^error\[E022\]: unused pattern `\$b`[\s\S]*\n\nerror\[E009\]: unknown identifier `nope`/,
    );
  });

  test('verdicts agree with compiling through the engine, includes refused and variables honoured', async () => {
    for (const variables of [undefined, { filename: '' }]) {
      const checker = yaraRuleChecker(variables ? { variables } : {});
      for (const source of SOURCES) {
        const compiled = await engine.compile({ sources: source, ...(variables ? { variables } : {}) });
        const check = checker.check(source);
        assert.equal(check.ok, compiled.kind === 'compiled', source);
        if (!check.ok && compiled.kind === 'failed')
          assert.deepEqual(
            check.errors.map((e) => e.code),
            compiled.errors.map((e) => e.code),
            source,
          );
      }
    }
    assert.deepEqual(
      SOURCES.map((s) => yaraRuleChecker().check(s).ok),
      [true, false, false, false, false, false],
    );
  });
});
