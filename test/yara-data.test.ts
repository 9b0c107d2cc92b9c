import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isTaeError } from '../src/errors/index.js';
import {
  type CompiledRuleSet,
  NO_MATCH_MESSAGE,
  runYara,
  TEST_DATA_LABEL,
  type YaraDataElement,
  type YaraDataRequest,
  type YaraDataResponse,
  YaraEngine,
} from '../src/yara/index.js';
import { matchesGolden } from './helpers/golden.js';

const engine = new YaraEngine({ threads: 1, scanTimeoutMs: 5_000 });
after(() => engine.close());

/** The rows of a Table element (failing the test on any other element). */
function rows(e: YaraDataElement | undefined): readonly (readonly string[])[] {
  assert.ok(e !== undefined && 'Table' in e, `expected a Table, got ${JSON.stringify(e)}`);
  return e.Table.data;
}

function errorText(e: YaraDataElement | undefined): string {
  assert.ok(e !== undefined && 'Error' in e, `expected an Error, got ${JSON.stringify(e)}`);
  return e.Error.message;
}

function metadataOf(e: YaraDataElement | undefined): { warnings: string; custom_rule: string } {
  assert.ok(e !== undefined && 'Metadata' in e, `expected Metadata, got ${JSON.stringify(e)}`);
  return e.Metadata.data;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const golden = (name: string, response: YaraDataResponse) =>
  matchesGolden(`yara-data-${name}.json`, `${JSON.stringify(response, null, 2)}\n`);

const SUSPICIOUS = 'cmd /c PowerShell.exe -NoP -EncodedCommand SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoA';
const POWERSHELL_RULE = `rule encoded_powershell : script {
  meta:
    description = "PowerShell started with an encoded command"
    author = "tae tests"
  strings:
    $exe = "powershell" nocase
    $enc = "-encodedcommand" nocase
  condition:
    all of them
}`;

/** A small community pack in two namespaces, as the rule library would compile it. */
const COMMUNITY_SOURCES = [
  {
    namespace: 'windows_powershell',
    origin: 'windows_powershell_encoded.yar',
    source: `${POWERSHELL_RULE}\nrule plain_powershell { meta: description = "PowerShell mentioned" strings: $a = "powershell.exe" nocase condition: $a }`,
  },
  {
    namespace: 'webshell',
    origin: 'webshell_eval.yar',
    source: `rule php_eval_post : webshell php { meta: description = "eval of POST data" author = "someone" strings: $a = "eval($_POST" condition: $a }`,
  },
];

let community: CompiledRuleSet | undefined;
async function communityRules(): Promise<CompiledRuleSet> {
  if (community) return community;
  const outcome = await engine.compile({ sources: COMMUNITY_SOURCES });
  assert.equal(outcome.kind, 'compiled');
  community = outcome.rules;
  return community;
}

async function rejection(request: unknown) {
  try {
    await runYara(request as YaraDataRequest, { engine, community: communityRules });
  } catch (e) {
    assert.ok(isTaeError(e), `expected a TaeError, got ${e}`);
    return { code: e.code, status: e.status, bodyFormat: e.bodyFormat, message: e.message };
  }
  assert.fail('the request was accepted');
}

describe('runYara (POST /analysis/yara/data)', () => {
  test('a matching custom rule gives a File/Rule table labelled test_data, then the rule metadata', async () => {
    const r = await runYara(
      { test_data: b64(SUSPICIOUS), operation: 'run_rule', rule: b64(POWERSHELL_RULE) },
      { engine },
    );
    assert.deepEqual(Object.keys(r), ['results']);
    assert.deepEqual(r.results[0], {
      Table: {
        title: 'Yara Custom Rule Results',
        data: [
          ['File', 'Rule'],
          [TEST_DATA_LABEL, 'encoded_powershell'],
        ],
        category: 'Yara',
      },
    });
    assert.deepEqual(r.results[1], {
      Metadata: {
        title: 'Rule metadata',
        data: { warnings: '', custom_rule: POWERSHELL_RULE },
        category: 'Yara',
      },
    });
    golden('custom-match', r);
  });

  test('community rules give File/Rule/Description/Author/Tags rows for every matching rule and no metadata', async () => {
    const data = `${SUSPICIOUS}\n<?php eval($_POST['x']); ?>`;
    const r = await runYara(
      { test_data: b64(data), operation: 'run_community_rules' },
      { engine, community: communityRules },
    );
    assert.equal(r.results.length, 1);
    const table = { data: rows(r.results[0]) };
    assert.deepEqual(table.data[0], ['File', 'Rule', 'Description', 'Author', 'Tags']);
    assert.deepEqual(
      table.data
        .slice(1)
        .map((row) => row[1])
        .sort(),
      ['encoded_powershell', 'php_eval_post', 'plain_powershell'],
    );
    assert.ok(table.data.some((row) => row[4] === 'webshell, php' && row[3] === 'someone'));
    golden('community-match', r);
  });

  test('community rules accept a function that returns the compiled set', async () => {
    const r = await runYara(
      { test_data: b64('nothing to see'), operation: 'run_community_rules' },
      {
        engine,
        community: () => communityRules(),
      },
    );
    assert.deepEqual(r.results, [{ message: NO_MATCH_MESSAGE }]);
  });

  test('no matching rule gives the no-match message element, then the metadata', async () => {
    const r = await runYara(
      { test_data: b64('dir C:\\Windows'), operation: 'run_rule', rule: b64(POWERSHELL_RULE) },
      { engine },
    );
    assert.deepEqual(r.results[0], { message: NO_MATCH_MESSAGE });
    golden('no-match', r);
  });

  test('compiler warnings appear as text in the metadata and the rule still runs', async () => {
    const rule = 'rule hex_as_text { strings: $a = { 50 6F 77 65 72 } condition: $a }';
    const r = await runYara(
      { test_data: b64(SUSPICIOUS), operation: 'run_rule', rule: b64(rule) },
      { engine },
    );
    const meta = metadataOf(r.results[1]);
    assert.match(meta.warnings, /^warning\[text_as_hex\]: hex pattern could be written as text literal/);
    assert.deepEqual(rows(r.results[0])[1], [TEST_DATA_LABEL, 'hex_as_text']);
    golden('warnings', r);
  });

  test('a rule that does not compile comes back in-band as an Error with every compiler report', async () => {
    const rule =
      'rule unused { strings: $a = "abc" $b = "never used" condition: $a }\nrule undeclared { condition: nope }';
    const r = await runYara(
      { test_data: b64(SUSPICIOUS), operation: 'run_rule', rule: b64(rule) },
      { engine },
    );
    const message = errorText(r.results[0]);
    assert.match(message, /^error\[E022\]: unused pattern `\$b`/);
    assert.match(message, /error\[E009\]: unknown identifier `nope`/);
    assert.ok('Metadata' in r.results[1]!);
    golden('compile-error', r);
  });

  test('test data that is not base64 (or missing) is refused with 400 Invalid test data format as text', async () => {
    const expected = {
      code: 'INVALID_ARGUMENT',
      status: 400,
      bodyFormat: 'text',
      message: 'Invalid test data format',
    };
    const bad = await rejection({
      test_data: 'not base64!',
      operation: 'run_rule',
      rule: b64(POWERSHELL_RULE),
    });
    assert.deepEqual(bad, expected);
    for (const request of [
      { operation: 'run_community_rules' },
      { test_data: 'QUJD=', operation: 'run_rule' },
      null,
      'x',
    ])
      assert.deepEqual(await rejection(request), expected);
    matchesGolden('yara-data-invalid-base64.json', `${JSON.stringify(bad, null, 2)}\n`);
  });

  test('run_rule without a usable rule is refused with 422 Rule is required as text', async () => {
    const missing = await rejection({ test_data: b64(SUSPICIOUS), operation: 'run_rule' });
    assert.deepEqual(missing, {
      code: 'VALIDATION_FAILED',
      status: 422,
      bodyFormat: 'text',
      message: 'Rule is required',
    });
    for (const rule of ['', '   ', '%%%', b64('  \n '), Buffer.from([0xff, 0xfe, 0x00]).toString('base64')])
      assert.deepEqual(await rejection({ test_data: b64('x'), operation: 'run_rule', rule }), missing);
    matchesGolden('yara-data-missing-rule.json', `${JSON.stringify(missing, null, 2)}\n`);
  });

  test('an unknown operation is refused with 400 Invalid operation as text, like the Sigma data endpoint', async () => {
    const r = await rejection({ test_data: b64('x'), operation: 'run_all' });
    assert.deepEqual(r, {
      code: 'INVALID_ARGUMENT',
      status: 400,
      bodyFormat: 'text',
      message: 'Invalid operation',
    });
  });

  test('wrapped and URL-safe base64 decode to the same bytes as standard base64', async () => {
    const rule = b64('rule bytes { strings: $a = { FB FF FE 3E 3F } condition: $a }');
    const bytes = Buffer.from([0x00, 0xfb, 0xff, 0xfe, 0x3e, 0x3f, 0x00]);
    for (const test_data of [
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('base64').replace(/(.{4})/g, '$1\r\n'),
    ]) {
      const r = await runYara({ test_data, operation: 'run_rule', rule }, { engine });
      assert.ok('Table' in r.results[0]!, `no match for ${JSON.stringify(test_data)}`);
    }
  });

  test('test data over the size limit is reported in-band, not scanned', async () => {
    const r = await runYara(
      { test_data: b64('x'.repeat(100)), operation: 'run_rule', rule: b64(POWERSHELL_RULE) },
      {
        engine,
        maxTestDataBytes: 10,
      },
    );
    assert.match(errorText(r.results[0]), /100 bytes, over the 10-byte limit/);
  });

  test('run_community_rules without options.community is a misuse naming the option', async () => {
    await assert.rejects(
      runYara({ test_data: b64('x'), operation: 'run_community_rules' }, { engine }),
      /options\.community/,
    );
  });
});
