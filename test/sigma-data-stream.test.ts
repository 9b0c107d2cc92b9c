/**
 * Issue 13 (11): the Sigma data endpoint reads a stream of JSON values as `jq` and
 * `evtx_dump -o json` print them (pretty-printed objects one after another), besides one
 * object, an array and JSON lines; what is not such a stream stays the endpoint's coded 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isTaeError, type TaeError } from '../src/errors/index.js';
import { Engine } from '../src/service/index.js';
import { parseTestText } from '../src/sigma/index.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const rule = (title: string, value: string) =>
  `title: ${title}\nlogsource: {product: windows}\ndetection:\n  sel: {Image|endswith: '${value}'}\n  condition: sel\n`;
/** One rule per event, so the table lists exactly the events that were evaluated. */
const RULES = b64(
  [rule('First', 'cmd.exe'), rule('Second', 'net.exe'), rule('Third', 'sc.exe')].join('---\n'),
);
const EVENTS = [
  { Image: 'C:\\Windows\\System32\\cmd.exe', CommandLine: 'cmd /c "a } b { c"' },
  { Image: 'C:\\Windows\\System32\\net.exe', Nested: { Deeper: ['x', { y: '"}' }] } },
  { Image: 'C:\\Windows\\System32\\sc.exe' },
];
const pretty = (events: readonly unknown[]) => events.map((e) => JSON.stringify(e, null, 2)).join('\n');

let engine: Engine;
before(async () => {
  engine = await Engine.open({ memory: true, rules: { builtin: false, env: {} } });
});
after(() => engine.close());

async function titles(testData: string): Promise<string[][]> {
  const r = await engine.sigmaData({ test_data: b64(testData), operation: 'run_rule', rule: RULES });
  const table = r.results[0];
  assert.equal(table?.type, 'Table', JSON.stringify(r.results));
  return table?.type === 'Table' ? table.data : [];
}

describe('test_data as a stream of JSON values', () => {
  const all = [['Rule'], ['First'], ['Second'], ['Third']];

  test('pretty-printed objects one after another (jq, evtx_dump -o json): each event is evaluated', async () => {
    const text = pretty(EVENTS);
    assert.match(text, /^\{\n {2}"Image"[\s\S]*\n\}\n\{\n/);
    assert.deepEqual(await titles(text), all);
    assert.equal(parseTestText(text).length, 3);
  });

  test('values with no separator, CRLF and blank lines between them are each evaluated', async () => {
    const [a, b, c] = EVENTS.map((e) => JSON.stringify(e, null, 1).replaceAll('\n', '\r\n'));
    assert.deepEqual(await titles(`${a}${b}\r\n\r\n\t${c}\r\n`), all);
  });

  test('one object, an array and JSON lines are still read', async () => {
    assert.deepEqual(await titles(JSON.stringify(EVENTS[0])), [['Rule'], ['First']]);
    assert.deepEqual(await titles(JSON.stringify(EVENTS)), all);
    assert.deepEqual(await titles(EVENTS.map((e) => JSON.stringify(e)).join('\n')), all);
  });

  for (const [label, text, why] of [
    ['an unclosed object', `${pretty(EVENTS)}\n{\n  "Image": "x"\n`, /line 19, column 1 is not closed/],
    ['a broken second value', `${pretty(EVENTS.slice(0, 1))}\n{"Image": }`, /JSON value at line 5, column 1/],
    ['an unterminated string', '{"Image": "x}', /unterminated string/],
    ['a stray closing brace', '{"Image": "x"}}', /unexpected '}'/],
    ['a scalar among the objects', `${pretty(EVENTS.slice(0, 1))}\n42\n`, /element 1 is not a JSON object/],
  ] as const)
    test(`${label} is the endpoint's 400 Invalid test data format`, async () => {
      await assert.rejects(
        engine.sigmaData({ test_data: b64(text), operation: 'run_rule', rule: RULES }),
        (e: unknown) => {
          assert.ok(isTaeError(e), String(e));
          const err = e as TaeError;
          assert.deepEqual(
            [err.status, err.message, err.bodyFormat],
            [400, 'Invalid test data format', 'text'],
          );
          assert.match(String((err.cause as TaeError | undefined)?.context.why), why);
          return true;
        },
      );
    });

  test('10 MB of pretty-printed events are split in linear time', () => {
    const one = pretty([
      { Image: 'C:\\x\\cmd.exe', CommandLine: 'a "quoted" \\ {brace} [bracket]'.repeat(4) },
    ]);
    const text = Array.from({ length: Math.floor((10 << 20) / (one.length + 1)) }, () => one).join('\n');
    const t0 = performance.now();
    const records = parseTestText(text);
    const ms = performance.now() - t0;
    assert.equal(records.length, 56_679);
    assert.ok(ms < 3000, `${ms} ms`);
  });
});
