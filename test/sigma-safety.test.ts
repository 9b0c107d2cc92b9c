/** Hostile rules and hostile events: nothing may take more than linear time or explode in memory. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadRules } from '../src/sigma/index.js';
import { compile, matches, rejection, ruleText } from './sigma-fixtures/rules.js';

function timed<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

describe('sigma safety', () => {
  test('(a+)+$ over 50,000 characters evaluates in well under 100 ms', () => {
    const rule = compile("sel:\n  V|re: '(a+)+$'\ncondition: sel");
    const [hit, ms] = timed(() => matches(rule, { V: `${'a'.repeat(50_000)}!` }));
    assert.equal(hit, false);
    assert.ok(ms < 100, `${ms} ms`);
  });

  test('the invoke-obfuscation regex that takes V8 25 s on 30 parentheses stays linear', () => {
    // posh_ps_invoke_obfuscation_var.yml's pattern (§2.4), on the input that makes V8 backtrack.
    const pattern = String.raw`cmd.{0,5}(?:/c|/r)(?:\s|)"set\s[a-zA-Z]{3,6}.*(?:\{\d\}){1,}\\"\s+?-f(?:.*\)){1,}.*"`;
    const rule = compile(`sel:\n  ScriptBlockText|re: '${pattern}'\ncondition: sel`);
    for (const n of [30, 5000]) {
      const [hit, ms] = timed(() =>
        matches(rule, { ScriptBlockText: `cmd /c "set abc {0}\\" -f${')'.repeat(n)}x` }),
      );
      assert.equal(hit, false);
      assert.ok(ms < 100, `${n} parentheses: ${ms} ms`);
    }
  });

  test('a glob with many stars over a long value is linear', () => {
    const rule = compile("sel:\n  V: '*a*a*a*a*a*a*a*a*b'\ncondition: sel");
    const [hit, ms] = timed(() => matches(rule, { V: 'a'.repeat(200_000) }));
    assert.equal(hit, false);
    assert.ok(ms < 100, `${ms} ms`);
  });

  test('a YAML alias bomb is rejected at once with yaml.alias', () => {
    const lines = ['title: lol', 'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const [r, ms] = timed(() => loadRules(lines.join('\n'), 'bomb.yml'));
    assert.equal(r.rules.length, 0);
    assert.equal(r.diagnostics[0]?.code, 'yaml.alias');
    assert.match(r.diagnostics[0]!.message, /aliases are not allowed/);
    assert.ok(ms < 100, `${ms} ms`);
  });

  test('a 10 MB rule text is rejected before parsing with input.too_large', () => {
    const text = ruleText(`sel:\n  V: '${'x'.repeat(10 * 1024 * 1024)}'\ncondition: sel`);
    const [r, ms] = timed(() => loadRules(text, 'huge.yml'));
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['input.too_large'],
    );
    assert.match(r.diagnostics[0]!.message, /more than the limit/);
    assert.ok(ms < 100, `${ms} ms`);
  });

  test('nesting deeper than 100 levels is rejected with yaml.depth', () => {
    const r = loadRules(`title: deep\nx: ${'['.repeat(500)}${']'.repeat(500)}`, 'deep.yml');
    assert.equal(r.diagnostics[0]?.code, 'yaml.depth');
  });

  test('windash over many dashes is refused rather than expanded without bound', () => {
    const value = Array.from({ length: 12 }, (_, i) => `-p${i}`).join(' ');
    assert.equal(rejection(`sel:\n  V|windash: '${value}'\ncondition: sel`), 'value.too_many_variants');
  });
});
