/**
 * The on-disk cache of parsed Sigma rules (src/rules/cache/): a second load does not
 * parse, the cached rules match as the parsed ones, and a corrupt, foreign or tampered entry
 * is ignored and rebuilt. The parse counter (`ruleCacheStats.parsed`) is the evidence, with
 * the entry's mtime and the `TAE_DEBUG` line of the CLI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serialize } from 'node:v8';
import { ruleCacheDir } from '../src/cli/rule-cache.js';
import { loadSigmaRules } from '../src/cli/sigma-rules.js';
import { evict, parseCached, RULE_CACHE_FORMAT, ruleCacheStats, textsPart } from '../src/rules/index.js';
import { eventFromObject, parseRuleText, YamlNumber } from '../src/sigma/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { writeTriageFixture } from './helpers/triage-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-rule-cache-'));
writeTriageFixture(dir);
const rules = join(dir, 'rules');

const entries = (cache: string) => readdirSync(cache).filter((n) => /^sigma-.*\.bin$/.test(n));
/** A parse as the CLI keeps it: the entry is written when the load remembers its trust. */
const parseKept = (texts: { source: string; text: string }[], cache: string, maxBytes?: number) => {
  const parsed = parseCached([textsPart(texts)], cache, maxBytes);
  parsed.remember('salt', undefined);
  return parsed;
};
const load = (cache: string) => loadSigmaRules({ ruleFiles: [rules], cache });

/** The rules' ids and what they say of one YamlNumber-bearing field, to compare loads. */
async function fingerprint(cache: string): Promise<string[]> {
  const { loaded } = await load(cache);
  return loaded.rules.map((r) => `${r.id} ${r.level} ${JSON.stringify(r.detection)}`);
}

test('the cache directory is TAE_CACHE_DIR, else XDG_CACHE_HOME/threat-analysis-engine', () => {
  assert.equal(ruleCacheDir({ TAE_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }), '/c');
  assert.equal(ruleCacheDir({ XDG_CACHE_HOME: '/x' }), join('/x', 'threat-analysis-engine'));
});

test('a second load of the same rules reads the cache and parses nothing', async () => {
  const cache = join(dir, 'hit');
  const parsedBefore = ruleCacheStats.parsed;
  const first = await fingerprint(cache);
  assert.equal(ruleCacheStats.parsed - parsedBefore, 5);
  const [file] = entries(cache);
  assert.ok(file);
  assert.equal(statSync(join(cache, file)).mode & 0o777, 0o600);
  assert.equal(statSync(cache).mode & 0o777, 0o700);
  const hits = ruleCacheStats.hits;
  assert.deepEqual(await fingerprint(cache), first);
  assert.equal(ruleCacheStats.parsed - parsedBefore, 5);
  assert.equal(ruleCacheStats.hits, hits + 1);
  // A changed rule is another selection: parsed again, into a second entry.
  writeFileSync(
    join(rules, 'r-low.yml'),
    readFileSync(join(rules, 'r-low.yml'), 'utf8').replace('level: low', 'level: medium'),
  );
  await load(cache);
  assert.equal(ruleCacheStats.parsed - parsedBefore, 10);
  assert.equal(entries(cache).length, 2);
  writeFileSync(
    join(rules, 'r-low.yml'),
    readFileSync(join(rules, 'r-low.yml'), 'utf8').replace('level: medium', 'level: low'),
  );
});

test('plain YAML numbers keep their text through the cache', () => {
  const texts = [{ source: 'n.yml', text: 'a: 00042\nb: [1.50, x]\n' }];
  const cache = join(dir, 'numbers');
  parseKept(texts, cache);
  const [cached] = parseKept(texts, cache).takeParsed();
  const doc = cached?.documents[0] as Map<string, unknown>;
  assert.ok(doc.get('a') instanceof YamlNumber);
  assert.equal(String(doc.get('a')), '00042');
  assert.deepEqual(cached, parseRuleText(texts[0]!.text, 'n.yml'));
});

test('a corrupt, foreign or tampered entry is ignored and rebuilt', async () => {
  const cache = join(dir, 'corrupt');
  /** An entry of this key whose 5 texts each hold `documents` and `diagnostics` (strings: ['x']). */
  const entryOf = (documents: unknown[], diagnostics: unknown[] = []) =>
    serialize({
      format: RULE_CACHE_FORMAT,
      key,
      parsed: serialize({ strings: ['x'], texts: Array(5).fill({ d: documents, g: diagnostics }) }),
    });
  const good = await fingerprint(cache);
  const [name] = entries(cache);
  const file = join(cache, name!);
  const key = name!.slice('sigma-'.length, -'.bin'.length);
  const bad: [string, Uint8Array][] = [
    ['garbage', Buffer.from('not a v8 value at all')],
    ['truncated', readFileSync(file).subarray(0, 100)],
    ['another format', serialize({ format: RULE_CACHE_FORMAT + 1, key, parsed: serialize([]) })],
    ['another key', serialize({ format: RULE_CACHE_FORMAT, key: '0'.repeat(64), parsed: serialize([]) })],
    ['a parse that is not bytes', serialize({ format: RULE_CACHE_FORMAT, key, parsed: [] })],
    ['a parse that is not V8 data', serialize({ format: RULE_CACHE_FORMAT, key, parsed: Buffer.from('xx') })],
    ['a date for a value', entryOf([new Date()])],
    ['a string outside the table', entryOf([7])],
    ['a map key outside the table', entryOf([{ m: [1.5, 0] }])],
    ['a map with a key and no value', entryOf([{ m: [0] }])],
    ['a string where a position belongs', entryOf([{ m: ['x', 0] }])],
    ['another source in a diagnostic', entryOf([], [{ source: 'x.yml', code: 'yaml.syntax', message: 'm' }])],
  ];
  for (const [what, bytes] of bad) {
    writeFileSync(file, bytes);
    const parsed = ruleCacheStats.parsed;
    assert.deepEqual(await fingerprint(cache), good, what);
    assert.equal(ruleCacheStats.parsed - parsed, 5, `${what}: parsed again`);
    const again = ruleCacheStats.parsed;
    await load(cache);
    assert.equal(ruleCacheStats.parsed, again, `${what}: the rebuilt entry is used`);
  }
});

test('the cache directory is kept under its size bound by removing the oldest entries', () => {
  const cache = join(dir, 'bounded');
  const text = (n: number) => [{ source: `${n}.yml`, text: `title: rule ${n}\npad: ${'x'.repeat(4000)}\n` }];
  parseKept(text(1), cache, 10_000);
  const [oldest] = entries(cache);
  utimesSync(join(cache, oldest!), new Date(1_000_000), new Date(1_000_000));
  parseKept(text(2), cache, 10_000);
  parseKept(text(3), cache, 10_000);
  const left = entries(cache);
  assert.equal(left.length, 2);
  assert.ok(!left.includes(oldest!));
});

test('the anchors a run took are read back by the next load, and a corrupt anchors file is ignored', async () => {
  const cache = join(dir, 'anchors');
  const events = [
    eventFromObject({ Channel: 'Security', EventID: 4624, LogonType: '10', TargetUserName: 'x' }),
    eventFromObject({ Channel: 'Microsoft-Windows-Sysmon/Operational', EventID: 1, CommandLine: 'x' }),
  ];
  const first = await load(cache);
  const verdicts = events.map((e) => first.ruleSet.match(e).map((m) => m.rule.title));
  first.finish();
  const taken = first.ruleSet.takenAnchors();
  assert.ok(taken.size > 0);
  const [file] = readdirSync(cache).filter((n) => n.startsWith('learnt-'));
  assert.ok(file);
  assert.equal(statSync(join(cache, file)).mode & 0o777, 0o600);
  const second = await load(cache);
  assert.deepEqual(second.ruleSet.takenAnchors(), taken, 'known before any event');
  assert.deepEqual(
    events.map((e) => second.ruleSet.match(e).map((m) => m.rule.title)),
    verdicts,
  );
  writeFileSync(join(cache, file), serialize({ format: RULE_CACHE_FORMAT, anchors: [[1, 2]] }));
  const rejected = ruleCacheStats.rejected;
  const third = await load(cache);
  assert.equal(ruleCacheStats.rejected, rejected + 1);
  assert.equal(third.ruleSet.takenAnchors().size, 0);
  assert.deepEqual(
    events.map((e) => third.ruleSet.match(e).map((m) => m.rule.title)),
    verdicts,
  );
});

test('the scanners a run took are read when a plan first asks for one, not by the load', async () => {
  const cache = join(dir, 'scanners');
  const event = eventFromObject({ Channel: 'Security', EventID: 4624, TargetUserName: 'alice' });
  const first = await load(cache);
  const verdict = first.ruleSet.match(event).map((m) => m.rule.title);
  first.finish();
  const [file] = readdirSync(cache).filter((n) => n.startsWith('scanners-'));
  assert.ok(file, 'the run took a scanner');
  assert.equal(statSync(join(cache, file)).mode & 0o777, 0o600);
  writeFileSync(join(cache, file), 'not a V8 value');
  const rejected = ruleCacheStats.rejected;
  const second = await load(cache);
  assert.equal(ruleCacheStats.rejected, rejected, 'not read by the load');
  assert.deepEqual(
    second.ruleSet.match(event).map((m) => m.rule.title),
    verdict,
  );
  assert.equal(ruleCacheStats.rejected, rejected + 1, 'read (and refused) by the first plan');
});

test('--no-cache parses without reading or writing the cache', async () => {
  const parsed = ruleCacheStats.parsed;
  await loadSigmaRules({ ruleFiles: [rules], cache: false });
  await loadSigmaRules({ ruleFiles: [rules], cache: false });
  assert.equal(ruleCacheStats.parsed - parsed, 10);
});

test('tae sigma: the second run says it hit the cache and leaves the entry untouched', () => {
  ensureBuilt();
  const env = { TAE_DEBUG: '1', TAE_CACHE_DIR: join(dir, 'cli-cache') };
  const run = (...extra: string[]) => runTae(dir, ['sigma', '--rule', 'rules', ...extra, 'triage.evtx'], env);
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  assert.match(
    first.stderr,
    /tae: debug: sigma rule cache miss \(5 files\)\n(.*\n)*tae: debug: sigma rule cache: wrote .*sigma-[0-9a-f]{64}\.bin/,
  );
  assert.match(first.stderr, /tae: debug: sigma rule cache: anchors of \d+ variants/);
  const [name] = entries(env.TAE_CACHE_DIR);
  const path = join(env.TAE_CACHE_DIR, name!);
  utimesSync(path, new Date(2_000_000), new Date(2_000_000));
  const anchorFiles = readdirSync(env.TAE_CACHE_DIR).filter((n) => n.startsWith('learnt-'));
  assert.equal(anchorFiles.length, 1);
  for (const f of anchorFiles)
    utimesSync(join(env.TAE_CACHE_DIR, f), new Date(2_000_000), new Date(2_000_000));
  const second = run();
  assert.match(second.stderr, /tae: debug: sigma rule cache hit .*\(5 files\)/);
  assert.doesNotMatch(second.stderr, /wrote|anchors of/);
  for (const f of anchorFiles) assert.equal(statSync(join(env.TAE_CACHE_DIR, f)).mtimeMs, 2_000_000);
  assert.equal(second.stdout, first.stdout);
  assert.equal(statSync(path).mtimeMs, 2_000_000);
  const bypass = run('--no-cache');
  assert.doesNotMatch(bypass.stderr, /rule cache/);
  assert.equal(bypass.stdout, first.stdout);
});

test('tae yara keeps the compiled rules owner-only in the cache and reuses them on the next run', () => {
  ensureBuilt();
  writeFileSync(join(dir, 'marker.yar'), 'rule marker { strings: $a = "TRIAGE-MARKER" condition: $a }\n');
  writeFileSync(join(dir, 'target.bin'), 'xx TRIAGE-MARKER xx');
  const cache = join(dir, 'yara-cache');
  const run = (...extra: string[]) =>
    runTae(dir, ['yara', '--rule', 'marker.yar', '--json', ...extra, 'target.bin'], { TAE_CACHE_DIR: cache });
  const first = run();
  assert.equal(first.status, 0, first.stderr);
  const [name, ...more] = readdirSync(join(cache, 'yara'));
  assert.match(name ?? '', /^[0-9a-f]{64}\.yarx$/);
  assert.deepEqual(more, []);
  const path = join(cache, 'yara', name!);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  utimesSync(path, new Date(3_000_000), new Date(3_000_000));
  const second = run();
  assert.equal(second.stdout, first.stdout);
  assert.match(first.stdout, /marker/);
  assert.equal(statSync(path).mtimeMs, 3_000_000, 'read, not rewritten');
  writeFileSync(path, 'TAEYARC1 truncated');
  const rebuilt = run();
  assert.equal(rebuilt.stdout, first.stdout);
  assert.ok(statSync(path).size > 100, 'a corrupt entry is compiled again and rewritten');
});

test('eviction keeps the newest cache files within the budget, learnt files of the old name included, and nothing else', () => {
  const cache = mkdtempSync(join(dir, 'evict-'));
  const hex = (c: string) => c.repeat(64);
  const files = [
    `sigma-${hex('a')}.bin`,
    `learnt-${hex('b')}.bin`,
    `anchors-${hex('c')}.bin`,
    `sigma-${hex('d')}.bin`,
  ];
  files.forEach((name, age) => {
    writeFileSync(join(cache, name), Buffer.alloc(1000));
    const t = new Date(Date.UTC(2026, 0, 1) - age * 60_000); // the first is the newest
    utimesSync(join(cache, name), t, t);
  });
  writeFileSync(join(cache, 'notes.bin'), Buffer.alloc(5000));
  evict(cache, 2500);
  assert.deepEqual(readdirSync(cache).sort(), [
    'learnt-' + hex('b') + '.bin',
    'notes.bin',
    'sigma-' + hex('a') + '.bin',
  ]);
  evict(cache, 1000);
  assert.deepEqual(readdirSync(cache).sort(), ['notes.bin', `sigma-${hex('a')}.bin`]);
});
