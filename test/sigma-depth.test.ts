/**
 * Issue 13 (9): nesting in hostile input is bounded everywhere on the Sigma path. Deep test
 * data is the Sigma data endpoint's own 400, deep rules are coded diagnostics that come back
 * in-band, never a RangeError (a 500, or `internal` text naming the stack).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isTaeError, type TaeError } from '../src/errors/index.js';
import { Engine } from '../src/service/index.js';
import { loadRules } from '../src/sigma/index.js';
import { MAX_CONDITION_DEPTH, MAX_DATA_DEPTH, MAX_YAML_DEPTH } from '../src/sigma/limits.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const DEEP = 5000;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}"x"${'}'.repeat(n)}`;
const ruleWith = (detection: string) =>
  `title: Deep\nlogsource: {product: windows}\ndetection:\n${detection}\n`;
const MATCH_A = ruleWith('  sel: {a: x}\n  condition: sel');

let engine: Engine;
before(async () => {
  engine = await Engine.open({ memory: true, rules: { builtin: false, env: {} } });
});
after(() => engine.close());

/** The endpoint's 400: exact spec message, plain text; `why` says what was wrong. */
async function refused(testData: string, why: RegExp) {
  await assert.rejects(
    engine.sigmaData({ test_data: b64(testData), operation: 'run_rule', rule: b64(MATCH_A) }),
    (e: unknown) => {
      assert.ok(isTaeError(e), String(e));
      const err = e as TaeError;
      assert.deepEqual([err.status, err.message, err.bodyFormat], [400, 'Invalid test data format', 'text']);
      // The endpoint's error keeps the analysis error that says why as its cause.
      assert.match(String((err.cause as TaeError | undefined)?.context.why), why);
      return true;
    },
  );
}

async function errorsOf(rule: string): Promise<string[]> {
  const r = await engine.sigmaData({ test_data: b64('{"a":"x"}'), operation: 'run_rule', rule: b64(rule) });
  return r.results.flatMap((e) => (e.type === 'Error' ? [e.message] : []));
}

describe('deep test data is the Sigma data endpoint 400', () => {
  test(`a ${DEEP}-deep JSON object`, () => refused(deepObject(DEEP), /nested deeper than 100 levels/));
  test(`a ${DEEP}-deep JSON array inside an object`, () =>
    refused(`{"a":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`, /nested deeper than 100 levels/));
  test(`the evtx crate's event JSON with a ${DEEP}-deep member`, () =>
    refused(`{"Event":{"System":{"Channel":"x"},"X":${deepObject(DEEP)}}}`, /nested deeper/));
  test(`${DEEP}-deep XML`, () =>
    refused(`<Event><System>${'<a>'.repeat(DEEP)}${'</a>'.repeat(DEEP)}</System></Event>`, /nested deeper/));
  test(`JSON exactly ${MAX_DATA_DEPTH} deep is still read`, async () => {
    const r = await engine.sigmaData({
      test_data: b64(`{"a":"x","b":${deepObject(MAX_DATA_DEPTH - 1)}}`),
      operation: 'run_rule',
      rule: b64(MATCH_A),
    });
    assert.deepEqual(r.results, [
      { type: 'Table', title: 'Sigma Analysis Results', data: [['Rule'], ['Deep']], category: 'Sigma' },
    ]);
  });
});

describe('deep rules are coded diagnostics, answered in-band', () => {
  const tooDeep = `Invalid Sigma rule format: Deep: the condition nests parentheses and 'not' deeper than ${MAX_CONDITION_DEPTH} levels`;

  test(`a condition in ${DEEP} parentheses is condition.too_deep`, async () => {
    const rule = ruleWith(`  sel: {a: x}\n  condition: ${'('.repeat(DEEP)}sel${')'.repeat(DEEP)}`);
    assert.equal(loadRules(rule, 'deep.yml').diagnostics[0]?.code, 'condition.too_deep');
    const [message, ...rest] = await errorsOf(rule);
    assert.deepEqual(rest, []);
    assert.ok(message?.startsWith(tooDeep), message);
    assert.doesNotMatch(message!, /RangeError|stack/);
  });

  test(`${DEEP * 50} nested nots are condition.too_deep`, async () => {
    const rule = ruleWith(`  sel: {a: x}\n  condition: ${'not '.repeat(DEEP * 50)}sel`);
    assert.equal(loadRules(rule, 'deep.yml').diagnostics[0]?.code, 'condition.too_deep');
    assert.ok((await errorsOf(rule))[0]?.startsWith(tooDeep));
  });

  test(`a condition ${MAX_CONDITION_DEPTH} deep still loads and matches`, async () => {
    const n = MAX_CONDITION_DEPTH / 2;
    const rule = ruleWith(`  sel: {a: x}\n  condition: ${'not ('.repeat(n)}sel${')'.repeat(n)}`);
    assert.deepEqual(loadRules(rule, 'ok.yml').diagnostics, []);
    assert.deepEqual(await errorsOf(rule), []);
  });

  test(`detection maps nested ${DEEP} deep are yaml.depth`, async () => {
    const rule = ruleWith(`  sel: ${'{a: '.repeat(DEEP)}x${'}'.repeat(DEEP)}\n  condition: sel`);
    assert.equal(loadRules(rule, 'deep.yml').diagnostics[0]?.code, 'yaml.depth');
    assert.deepEqual(await errorsOf(rule), [
      `Invalid Sigma rule format: YAML nesting is deeper than ${MAX_YAML_DEPTH} levels at line 4, column ${4 * MAX_YAML_DEPTH - 3}`,
    ]);
  });

  test(`a selection list nested ${DEEP} deep is yaml.depth`, async () => {
    const rule = ruleWith(`  sel: ${'['.repeat(DEEP)}x${']'.repeat(DEEP)}\n  condition: sel`);
    assert.equal(loadRules(rule, 'deep.yml').diagnostics[0]?.code, 'yaml.depth');
    const [message] = await errorsOf(rule);
    assert.match(message!, /^Invalid Sigma rule format: YAML nesting is deeper than 100 levels/);
  });

  test('a 1 MB rule of correlations chained 8,500 deep is ordered and run, not a RangeError', async () => {
    const n = 8500;
    const docs = [ruleWith('  s: {a: x}\n  condition: s').replace('title: Deep', 'title: base\nname: c0')];
    // Outermost first, so ordering starts at the top of the chain.
    for (let i = n; i >= 1; i--)
      docs.push(
        `title: c${i}\nname: c${i}\ncorrelation: {type: event_count, rules: [c${i - 1}], timespan: 1h, condition: {gte: 1}}`,
      );
    const text = docs.join('\n---\n');
    assert.ok(text.length < 1 << 20, 'within the rule size limit');
    const r = await engine.sigmaData({
      test_data: b64('{"a":"x","@timestamp":"2026-01-01T00:00:00Z"}'),
      operation: 'run_rule',
      rule: b64(text),
    });
    assert.deepEqual(r.results, [
      { type: 'Table', title: 'Sigma Analysis Results', data: [['Rule'], [`c${n}`]], category: 'Sigma' },
    ]);
  });
});
