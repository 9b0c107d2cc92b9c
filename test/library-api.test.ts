/**
 * The library's front door as a tool builder meets it: one options object per function,
 * validated (a misspelled key is refused by name), coded errors only, honest statistics.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { randomEvents } from '../fixtures/large-events.js';
import { Engine } from '../src/entry/service.js';
import { compileRuleSet, isTaeError, loadRules, lookup, parseEvtx, runSigma, runYara } from '../src/index.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-library-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** About 40 chunks of varied events: enough for a pooled parse to be cancelled half way. */
function manyChunkLog(): string {
  const events = randomEvents(16);
  const path = join(dir, 'many.evtx');
  writeFileSync(path, writeEvtx(Array.from({ length: 6000 }, () => events.next().value)));
  return path;
}
const MANY = manyChunkLog();
const SMALL = join(dir, 'small.evtx');
writeFileSync(SMALL, smallLog());

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Asserts a TaeError with this code whose message matches. */
const coded = (code: string, message: RegExp) => (e: unknown) => {
  assert.ok(isTaeError(e), `expected a TaeError, got ${e}`);
  assert.equal(e.code, code);
  assert.match(e.message, message);
  return true;
};

describe('options objects are validated at the door', () => {
  test('a misspelled key is refused with its name (and the option it resembles)', async () => {
    const unknown = (name: string) => coded('INVALID_ARGUMENT', new RegExp(`unknown option '${name}'`));
    assert.throws(() => parseEvtx(SMALL, { thread: 2 } as never), unknown('thread'));
    assert.throws(() => parseEvtx(SMALL, { thread: 2 } as never), /did you mean 'threads'/);
    const sigma = { test_data: b64('{"EventID": 1}'), operation: 'run_community_rules' } as const;
    await assert.rejects(
      runSigma(sigma, { comunity: () => ({ match: () => [] }) } as never),
      unknown('comunity'),
    );
    await assert.rejects(
      runYara({ test_data: b64('x'), operation: 'run_community_rules' }, { timeout: 5 } as never),
      unknown('timeout'),
    );
    await assert.rejects(
      lookup({ search: '4624', module: 'event_id' }, { data: 1 } as never),
      unknown('data'),
    );
    await assert.rejects(
      Engine.open({ memory: true, dataDirectory: dir } as never),
      unknown('dataDirectory'),
    );
  });

  test('an options argument that is not an object is refused by name', () => {
    assert.throws(
      () => parseEvtx(SMALL, 2 as never),
      coded('INVALID_ARGUMENT', /options\.options must be an object/),
    );
  });

  test('Engine.open() without an argument is a TaeError naming dataDir, not a TypeError', async () => {
    await assert.rejects(
      (Engine.open as () => Promise<Engine>)(),
      coded('INVALID_ARGUMENT', /options\.dataDir/),
    );
  });
});

describe('runSigma with a compiled rule set', () => {
  const RULE = `title: Failed logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
`;
  const request = {
    test_data: b64(JSON.stringify({ Channel: 'Security', EventID: 4625, Computer: 'ws1' })),
    operation: 'run_community_rules',
  } as const;

  test('compileRuleSet output serves run_community_rules, run after run', async () => {
    const loaded = loadRules(RULE, 'failed-logon.yml');
    const ruleSet = compileRuleSet({ rules: loaded.rules });
    for (let i = 0; i < 2; i++) {
      const { results } = await runSigma(request, { community: ruleSet });
      assert.equal(results[0]?.type, 'Table');
      assert.deepEqual(results[0]?.type === 'Table' && results[0].data.slice(1).map((r) => r[0]), [
        'failed-logon',
      ]);
    }
    const lazily = (await runSigma(request, { community: () => ruleSet })).results[0];
    assert.ok(lazily?.type === 'Table' && lazily.data.length === 2);
  });

  test('a community option that is neither a rule set nor a matcher is refused by name', async () => {
    await assert.rejects(
      runSigma(request, { community: {} as never }),
      coded('INVALID_ARGUMENT', /options\.community/),
    );
  });
});

describe('parseEvtx', () => {
  for (const threads of [0, 2]) {
    test(`cancelling with threads: ${threads} fails with TaeError CANCELLED`, async () => {
      const controller = new AbortController();
      const parse = parseEvtx(MANY, { threads, signal: controller.signal });
      let n = 0;
      await assert.rejects(
        async () => {
          for await (const _ of parse) if (++n === 50) controller.abort();
        },
        coded('CANCELLED', /cancelled/),
      );
    });
  }

  for (const [threads, kind] of [
    [0, 'path'],
    [2, 'path'],
    [0, 'buffer'],
    [2, 'buffer'],
  ] as const) {
    test(`stats.bytes counts the bytes read (threads: ${threads}, ${kind})`, async () => {
      const source = kind === 'path' ? MANY : writeEvtxCopy();
      const parse = parseEvtx(source, { threads });
      for await (const _ of parse);
      assert.equal(parse.stats.bytes, statSync(MANY).size);
      assert.ok(parse.stats.records > 0);
    });
  }

  test('iterating records of a batchText parse is refused with a pointer to chunks()', async () => {
    const parse = parseEvtx(SMALL, { outputs: ['json'], batchText: true });
    await assert.rejects(
      async () => {
        for await (const _ of parse);
      },
      coded('INVALID_ARGUMENT', /chunks\(\)/),
    );
    let text = '';
    for await (const c of parseEvtx(SMALL, { outputs: ['json'], batchText: true }).chunks())
      text += Buffer.from(c.text ?? []).toString('utf8');
    assert.equal(text.trim().split('\n').length, 7);
  });

  test('a directory is a coded TaeError, not a raw EISDIR', async () => {
    await assert.rejects(
      async () => {
        for await (const _ of parseEvtx(dir));
      },
      coded('INPUT_UNREADABLE', /it is a directory/),
    );
  });
});

function writeEvtxCopy(): Uint8Array {
  const events = randomEvents(16);
  return writeEvtx(Array.from({ length: 6000 }, () => events.next().value));
}
