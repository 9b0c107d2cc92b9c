/**
 * The engine's community Sigma rules (src/service/community.ts) load through the rule cache
 * in the library's data directory, as the CLI's do: a second engine parses and reads no text,
 * builds what compiled before deferred, and matches alike; its decode workers load the cache's
 * parse (sigma's portable form) and match alike too. A library in memory keeps no cache.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openRuleLibrary, ruleCacheStats } from '../src/rules/index.js';
import { Community, RULE_CACHE_DIR } from '../src/service/community.js';
import { isDeferred } from '../src/sigma/compile.js';
import {
  eventFromObject,
  loadPortable,
  portableFits,
  type RuleSet,
  type SigmaRule,
} from '../src/sigma/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-rule-cache-engine-'));
const pack = join(dir, 'pack');
mkdirSync(pack);
const rule = (title: string, selection: string) =>
  `title: ${title}\ndescription: ${title} (what an analyst reads)\ntags:\n  - attack.t1078\nlogsource:\n  product: windows\n  service: security\ndetection:\n  sel:\n    ${selection}\n  condition: sel\n`;
writeFileSync(join(pack, 'alice.yml'), rule('Alice logs on', 'TargetUserName|endswith: lice'));
writeFileSync(join(pack, 'fail.yml'), rule('Failed logon', 'EventID: 4625'));
writeFileSync(
  join(pack, 'linux.yml'),
  'title: Not Windows\nlogsource:\n  product: linux\ndetection:\n  s:\n    a: b\n  condition: s\n',
);

const events = [
  { EventID: 4624, TargetUserName: 'alice' },
  { EventID: 4625, TargetUserName: 'bob' },
  { EventID: 4625, TargetUserName: 'ALICE' },
].map((e) => eventFromObject({ Channel: 'Security', ...e }));
const verdicts = (rs: RuleSet) => events.map((e) => rs.match(e).map((m) => m.rule.title));

test('a second engine loads the community rules from the cache in its data directory and matches alike', async () => {
  const data = join(dir, 'data');
  const library = await openRuleLibrary({ dataDir: data, env: {} });
  await library.addPack(pack);
  library.close();
  const before = { ...ruleCacheStats };
  const first = await new Community({ dataDir: data, env: {} }).sigma();
  const parsed = ruleCacheStats.parsed - before.parsed;
  assert.ok(parsed >= 3, 'the builtin pack and ours');
  // Built again once the cold cache learnt which compile: deferred, as on every later run.
  assert.ok(first.loaded.rules.every(isDeferred), 'a cold cache leaves the job thread compiled rules');
  const cache = join(data, RULE_CACHE_DIR);
  assert.equal(statSync(cache).mode & 0o777, 0o700);
  assert.equal(readdirSync(cache).filter((n) => /^sigma-[0-9a-f]{64}\.bin$/.test(n)).length, 1);
  const second = await new Community({ dataDir: data, env: {} }).sigma();
  assert.equal(ruleCacheStats.parsed - before.parsed, parsed, 'parsed nothing');
  assert.equal(ruleCacheStats.read - before.read, parsed, 'read no text');
  assert.deepEqual(
    second.loaded.rules.map((r) => r.title),
    first.loaded.rules.map((r) => r.title),
  );
  assert.deepEqual(verdicts(first.ruleSet), [
    ['Alice logs on'],
    ['Failed logon'],
    ['Alice logs on', 'Failed logon'],
  ]);
  assert.deepEqual(verdicts(second.ruleSet), verdicts(first.ruleSet));
  // What a decode worker loads: the cache's parse, the same rules in the same order.
  const worker = loadPortable(second.portable);
  assert.ok(worker !== null && portableFits(second.portable, second.loaded.rules));
  assert.deepEqual(verdicts(worker.ruleSet), verdicts(first.ruleSet));
  // The worker only matches and names by position: its rules keep no text for the analyst, and
  // no YAML beyond their title, ids, status, level and logsource (compile.ts BuildOptions.lean).
  const alice = (rules: readonly SigmaRule[]) => rules.find((r) => r.title === 'Alice logs on')!;
  const [made, taken] = [alice(second.loaded.rules), alice(worker.ruleSet.rules)];
  assert.equal(made.description, 'Alice logs on (what an analyst reads)');
  assert.deepEqual(made.tags, ['attack.t1078']);
  assert.equal(taken.description, undefined);
  assert.deepEqual(taken.tags, []);
  assert.deepEqual([...taken.raw.keys()], ['title', 'logsource']);
  // Nor a rule no Windows event can match: it never would there.
  assert.ok(second.loaded.rules.some((r) => r.title === 'Not Windows'));
  assert.ok(!worker.ruleSet.rules.some((r) => r.title === 'Not Windows'));
  // Nor does the engine keep its rules' YAML (a job never renders one), but all they say.
  assert.deepEqual([...made.raw.keys()], ['title', 'logsource']);
  assert.deepEqual(Object.keys(made), Object.keys(first.loaded.rules.find((r) => r.title === made.title)!));
});

test('a library in memory keeps no cache: every engine parses its rules', async () => {
  const before = ruleCacheStats.parsed;
  await new Community({ dataDir: false, env: {} }).sigma();
  const once = ruleCacheStats.parsed - before;
  assert.ok(once > 0);
  await new Community({ dataDir: false, env: {} }).sigma();
  assert.equal(ruleCacheStats.parsed - before, 2 * once);
});

test('a worker refuses a portable form whose parse does not decode, rather than load other rules', async () => {
  const sigma = await new Community({ dataDir: false, env: {} }).sigma();
  const shared = new Uint8Array(sigma.portable.shared.length);
  shared.set(sigma.portable.shared);
  shared.fill(0x41, shared.length >> 1); // the second half of the body, the parse among it
  assert.throws(() => loadPortable({ shared }));
});
