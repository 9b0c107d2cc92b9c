/**
 * How a warm load finds its cache entry without reading the rule texts (src/rules/cache/):
 * rule files by their stats (stat-key.ts), the rule library's texts by its content hashes.
 * Anything changed is read and parsed again; stats taken within a clock tick or so of a write
 * are never kept. `ruleCacheStats.read` (texts read) and `.parsed` are the evidence.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { filesPart, openRuleLibrary, parseCached, ruleCacheStats } from '../src/rules/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-rule-cache-keys-'));
const rule = (title: string, user: string) =>
  `title: ${title}\nlogsource:\n  product: windows\n  service: security\ndetection:\n  sel:\n    TargetUserName: ${user}\n  condition: sel\n`;

const rules = join(dir, 'rules');
mkdirSync(rules);
const names = ['a.yml', 'b.yml', 'c.yml'];
for (const [i, n] of names.entries()) writeFileSync(join(rules, n), rule(`rule ${i}`, 'alice'));
const cache = join(dir, 'cache');
const statFiles = () => names.map((n) => ({ path: join(rules, n), stat: statSync(join(rules, n)) }));
const indexes = () => readdirSync(cache).filter((n) => n.startsWith('files-'));

type YamlMap = Map<string, unknown>;
const userOf = (doc: unknown) =>
  (((doc as YamlMap).get('detection') as YamlMap).get('sel') as YamlMap).get('TargetUserName');

/** A load as the CLI makes one; `later` ms after the stats as far as the racy check goes. */
function load(later: number) {
  const parsed = parseCached([filesPart(statFiles(), Date.now() + later, cache, 1 << 30)], cache);
  parsed.remember('salt', undefined);
  return parsed;
}

test('rule files are keyed by their stats: a later run reads no text, a changed file is read again', () => {
  const before = { ...ruleCacheStats };
  const first = load(60_000);
  assert.equal(ruleCacheStats.read - before.read, 3);
  assert.equal(ruleCacheStats.parsed - before.parsed, 3);
  assert.equal(indexes().length, 1);
  assert.equal(statSync(join(cache, indexes()[0]!)).mode & 0o777, 0o600);
  const second = load(60_000);
  assert.equal(ruleCacheStats.read - before.read, 3, 'no text read');
  assert.equal(ruleCacheStats.parsed - before.parsed, 3);
  assert.deepEqual(second.takeParsed(), first.takeParsed());
  // Same size, other text: only the stats (ctime) tell.
  writeFileSync(join(rules, 'b.yml'), rule('rule 1', 'bobby'));
  const third = load(60_000);
  assert.equal(ruleCacheStats.read - before.read, 6);
  assert.equal(ruleCacheStats.parsed - before.parsed, 6);
  assert.equal(userOf(third.takeParsed()[1]!.documents[0]), 'bobby');
  load(60_000);
  assert.equal(ruleCacheStats.read - before.read, 6, 'the new stats were kept: no text read');
  assert.equal(indexes().length, 1, 'one index per list of paths, rewritten');
});

test('stats taken right after a write are not kept: the next run reads the texts again', () => {
  writeFileSync(join(rules, 'c.yml'), rule('rule 2', 'carol'));
  const index = join(cache, indexes()[0]!);
  const kept = readFileSync(index);
  const before = { ...ruleCacheStats };
  load(0);
  load(0);
  assert.equal(ruleCacheStats.read - before.read, 6, 'read both times');
  assert.equal(
    ruleCacheStats.parsed - before.parsed,
    3,
    'parsed once: the second found the entry by its texts',
  );
  assert.deepEqual(readFileSync(index), kept, 'not rewritten');
});

test("the rule library's texts are keyed by its content hashes: a warm load reads none", async () => {
  const pack = join(dir, 'pack');
  mkdirSync(pack);
  writeFileSync(join(pack, 'one.yml'), rule('one', 'alice'));
  writeFileSync(join(pack, 'two.yml'), rule('two', 'bob'));
  const data = join(dir, 'data');
  const library = await openRuleLibrary({ dataDir: data, env: {} });
  try {
    await library.addPack(pack);
    const libCache = join(dir, 'lib-cache');
    const run = () => {
      const parsed = parseCached([library.sigmaPart({ packs: ['pack'] }).part], libCache);
      parsed.remember('salt', undefined);
      return parsed;
    };
    const before = { ...ruleCacheStats };
    const first = run();
    assert.deepEqual(first.sources, ['pack:one.yml', 'pack:two.yml']);
    assert.equal(ruleCacheStats.read - before.read, 2);
    const second = run();
    assert.equal(ruleCacheStats.read - before.read, 2, 'no text read');
    assert.deepEqual(second.takeParsed(), first.takeParsed());
    writeFileSync(join(pack, 'two.yml'), rule('two', 'carol'));
    await library.addPack(pack);
    run();
    assert.equal(ruleCacheStats.read - before.read, 4);
    assert.equal(ruleCacheStats.parsed - before.parsed, 4);
  } finally {
    library.close();
  }
});
