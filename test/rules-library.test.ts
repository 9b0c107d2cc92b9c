/**
 * The rule library on generated packs: retrieval with the endpoints' exact errors, line
 * splitting, precedence among same-named files, persistence and re-indexing, diagnostics,
 * the YARA compile seam (wired to the real YARA-X), selections and options.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { TaeError } from '../src/errors/index.js';
import {
  builtinPackDir,
  INDEX_FILE,
  openRuleLibrary,
  type RuleLibraryOptions,
  type YaraChecker,
} from '../src/rules/index.js';

const root = mkdtempSync(join(tmpdir(), 'tae-rules-'));
let counter = 0;
/** A fresh directory holding the given files (relative path → text or bytes). */
function pack(files: Record<string, string | Uint8Array>, name = `pack${++counter}`): string {
  const dir = join(root, `${counter}-${Math.random().toString(36).slice(2)}`, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}
const memory = (o: RuleLibraryOptions = {}) => openRuleLibrary({ dataDir: false, env: {}, ...o });

const sigma = (title: string, extra = '') =>
  `title: ${title}\nid: 9d0f3a4e-5b1c-4d2e-8f3a-1b2c3d4e5f60\nstatus: test\nauthor: tester\nlevel: low\n` +
  `logsource:\n  product: windows\n  service: security\ndetection:\n  selection:\n    EventID: 4624\n  condition: selection\n${extra}`;
const YARA_OK = 'rule ok_rule { strings: $a = "needle" condition: $a }\n';
const YARA_BAD = 'rule bad_rule { strings: $a = "needle" condition: true }\n';

function rejects(
  fn: () => unknown,
  code: string,
  status: number,
  message: string | RegExp,
  bodyFormat?: string,
) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof TaeError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.status, status);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    if (bodyFormat !== undefined) assert.equal(e.bodyFormat, bodyFormat);
    return true;
  });
}

test('the builtin pack is indexed on first use and its rules come back as the exact file lines', async () => {
  const lib = await memory();
  const packs = lib.packs();
  assert.equal(packs[0]?.name, 'builtin');
  assert.equal(packs[0]?.position, 0);
  assert.ok(packs[0]!.sigma >= 40 && packs[0]!.yara >= 15);
  const dir = builtinPackDir()!;
  const file = (p: string) => readFileSync(join(dir, p), 'utf8').split('\n').slice(0, -1);
  const got = lib.get('sigma', ['win_security_log_cleared', 'proc_access_win_lsass_memory_read']);
  assert.deepEqual(got.results, {
    win_security_log_cleared: file('sigma/win_security_log_cleared.yml'),
    proc_access_win_lsass_memory_read: file('sigma/proc_access_win_lsass_memory_read.yml'),
  });
  assert.deepEqual(lib.get('yara', ['test_file_eicar_string']).results, {
    test_file_eicar_string: file('yara/test_file_eicar_string.yar'),
  });
  lib.close();
});

test('retrieval answers 400 Invalid rule names provided for empty or malformed requests, text for Sigma and JSON for YARA', async () => {
  const lib = await memory();
  const bad: unknown[] = [
    [],
    'win_security_log_cleared',
    [''],
    ['a/b'],
    ['a\\b'],
    ['x\ny'],
    [' '],
    ['x'.repeat(257)],
    [42],
    null,
  ];
  for (const names of bad) {
    rejects(
      () => lib.get('sigma', names as string[]),
      'INVALID_ARGUMENT',
      400,
      'Invalid rule names provided',
      'text',
    );
    rejects(
      () => lib.get('yara', names as string[]),
      'INVALID_ARGUMENT',
      400,
      'Invalid rule names provided',
      'json',
    );
  }
  rejects(
    () =>
      lib.get(
        'sigma',
        Array.from({ length: 1001 }, (_, i) => `n${i}`),
      ),
    'INVALID_ARGUMENT',
    400,
    'Invalid rule names provided',
  );
  rejects(() => lib.get('lua' as 'sigma', ['x']), 'INVALID_ARGUMENT', 400, /options\.kind/);
  lib.close();
});

test('retrieval answers 404 One or more rules not found when any name is missing; names are case-sensitive', async () => {
  const lib = await memory();
  rejects(
    () => lib.get('sigma', ['win_security_log_cleared', 'no_such_rule']),
    'NOT_FOUND',
    404,
    'One or more rules not found',
    'text',
  );
  rejects(
    () => lib.get('sigma', ['WIN_SECURITY_LOG_CLEARED']),
    'NOT_FOUND',
    404,
    'One or more rules not found',
  );
  rejects(
    () => lib.get('yara', ['win_security_log_cleared']),
    'NOT_FOUND',
    404,
    'One or more rules not found',
    'json',
  );
  // A duplicated name is answered once, under its own key.
  assert.deepEqual(
    Object.keys(lib.get('sigma', ['win_security_log_cleared', 'win_security_log_cleared']).results),
    ['win_security_log_cleared'],
  );
  lib.close();
});

test('lines split at LF or CRLF, without the final terminator or a byte-order mark, keeping blank lines', async () => {
  const dir = pack({
    'crlf.yar': 'rule a {\r\n  condition: false\r\n}\r\n',
    'bare.yar': 'rule b {\n\n  condition: false\n}',
    'bom.yar': '\uFEFFrule c { condition: false }\n\n',
    'lone_cr.yar': 'rule d { condition: false } // a\rb\n',
    'empty.yar': '',
  });
  const lib = await memory({ builtin: false });
  await lib.addPack(dir);
  assert.deepEqual(lib.get('yara', ['crlf', 'bare', 'bom', 'lone_cr', 'empty']).results, {
    crlf: ['rule a {', '  condition: false', '}'],
    bare: ['rule b {', '', '  condition: false', '}'],
    bom: ['rule c { condition: false }', ''],
    lone_cr: ['rule d { condition: false } // a\rb'],
    empty: [],
  });
  lib.close();
});

test('same-named files: the builtin pack first, then user packs in the order added, then path order; variants lists all', async () => {
  const first = pack({ 'b/dup.yml': sigma('First B'), 'a/dup.yml': sigma('First A') }, 'first');
  const second = pack(
    { 'dup.yml': sigma('Second'), 'win_security_log_cleared.yml': sigma('Shadow') },
    'second',
  );
  const lib = await memory();
  await lib.addPack(first);
  await lib.addPack(second);
  assert.equal(lib.get('sigma', ['dup']).results.dup?.[0], 'title: First A');
  assert.deepEqual(
    lib
      .variants('sigma', 'dup')
      .filter((v) => v.logsource === undefined)
      .map((v) => [v.pack, v.path, v.title]),
    [
      ['first', 'a/dup.yml', 'First A'],
      ['first', 'b/dup.yml', 'First B'],
      ['second', 'dup.yml', 'Second'],
    ],
  );
  assert.equal(
    lib.get('sigma', ['win_security_log_cleared']).results.win_security_log_cleared?.[0],
    'title: Security Event Log Cleared',
  );
  assert.deepEqual(
    lib
      .variants('sigma', 'win_security_log_cleared')
      .filter((v) => v.logsource === undefined)
      .map((v) => v.pack),
    ['builtin', 'second'],
  );
  lib.close();
});

test('a persistent index survives re-opening; an unchanged re-add is a no-op; changed, added and deleted files are re-indexed', async () => {
  const dataDir = join(root, 'home-persist');
  const dir = pack({ 'r1.yml': sigma('One'), 'r2.yml': sigma('Two'), 'y.yar': YARA_OK });
  let lib = await openRuleLibrary({ dataDir, env: {} });
  const added = await lib.addPack(dir);
  assert.deepEqual([added.added, added.updated, added.removed, added.unchanged], [3, 0, 0, false]);
  lib.close();

  lib = await openRuleLibrary({ env: { TAE_HOME: dataDir } });
  assert.equal(lib.dataDir, dataDir);
  assert.equal(lib.get('sigma', ['r1']).results.r1?.[0], 'title: One');
  const again = await lib.addPack(dir);
  assert.equal(again.unchanged, true);
  assert.deepEqual([again.added, again.updated, again.removed], [0, 0, 0]);
  assert.equal(again.pack.indexedAt, added.pack.indexedAt);

  writeFileSync(join(dir, 'r1.yml'), sigma('One, revised'));
  rmSync(join(dir, 'r2.yml'));
  writeFileSync(join(dir, 'r3.yml'), sigma('Three'));
  const changed = await lib.addPack(dir);
  assert.deepEqual([changed.added, changed.updated, changed.removed, changed.unchanged], [1, 1, 1, false]);
  assert.equal(lib.get('sigma', ['r1']).results.r1?.[0], 'title: One, revised');
  rejects(() => lib.get('sigma', ['r2']), 'NOT_FOUND', 404, 'One or more rules not found');
  assert.deepEqual(changed.pack.sigma, 2);
  lib.close();

  // Contents of deleted files are gone from the index file too.
  const db = openSqlite(join(dataDir, INDEX_FILE));
  const texts = db.prepare('SELECT text FROM contents').pluck().all() as string[];
  db.close();
  assert.ok(!texts.some((t) => t.includes('title: Two')));
  assert.ok(texts.some((t) => t.includes('title: Three')));
});

test('files that cannot be indexed are reported beside the rules that can', async () => {
  const dir = pack({
    'good.yml': sigma('Good'),
    'broken.yml': sigma('Broken', '').replace('condition: selection', 'condition: selection and missing'),
    'config.yml': 'title: A backend mapping\nlogsources:\n  x: 1\n',
    'latin1.yar': new Uint8Array([0x72, 0x75, 0x6c, 0x65, 0x20, 0xe9, 0x0a]),
    'big.yar': `rule big { condition: false }\n// ${'x'.repeat(5000)}\n`,
    '.github/workflows/ci.yml': 'on: push\n',
    'notes.md': '# not a rule',
  });
  symlinkSync(join(dir, 'good.yml'), join(dir, 'link.yml'));
  const lib = await memory({ builtin: false, limits: { maxFileBytes: 4096 } });
  const report = await lib.addPack(dir);
  const byPath = Object.fromEntries(report.diagnostics.map((d) => [d.path, d.code]));
  assert.deepEqual(byPath, {
    'big.yar': 'file.too_large',
    'broken.yml': 'sigma.load',
    'config.yml': 'sigma.not_a_rule',
    'latin1.yar': 'file.not_utf8',
    'link.yml': 'file.symlink',
  });
  assert.equal(report.skipped, 4);
  assert.equal(report.added, 2);
  // A rule that does not load is still retrievable by name.
  assert.equal(lib.get('sigma', ['broken']).results.broken?.[0], 'title: Broken');
  assert.match(report.diagnostics.find((d) => d.path === 'broken.yml')!.message, /condition/);
  assert.deepEqual(lib.diagnostics, report.diagnostics);
  lib.close();
});

test('a pack over the file-count limit is refused as a whole and nothing of it is indexed', async () => {
  const dir = pack({ 'a.yar': YARA_OK, 'b.yar': YARA_OK, 'c.yar': YARA_OK });
  const lib = await memory({ builtin: false, limits: { maxFiles: 2 } });
  await assert.rejects(
    lib.addPack(dir),
    (e: TaeError) => e.code === 'TOO_LARGE' && /more than 2 rule files/.test(e.message),
  );
  assert.deepEqual(lib.packs(), []);
  lib.close();
});

interface YaraValidate {
  validate(source: string, options?: { enableIncludes?: boolean }): { errors: { message: string }[] };
}
const yarax = createRequire(import.meta.url)('@litko/yara-x-linux-x64-gnu') as YaraValidate;

test('with a YARA checker wired, files that do not compile are left out of runs with the compiler message, checked once per content', async () => {
  let calls = 0;
  const checker: YaraChecker = {
    id: 'yara-x test',
    check(source) {
      calls++;
      const { errors } = yarax.validate(source, { enableIncludes: false });
      return errors.length === 0
        ? { ok: true }
        : { ok: false, message: errors.map((e) => e.message).join('\n') };
    },
  };
  const dataDir = join(root, 'home-yara');
  const dir = pack({ 'good.yar': YARA_OK, 'bad.yar': YARA_BAD, 'include.yar': 'include "/etc/passwd"\n' });
  let lib = await openRuleLibrary({ dataDir, env: {}, builtin: false, yaraChecker: checker });
  const report = await lib.addPack(dir);
  assert.equal(calls, 3);
  const failures = report.diagnostics.filter((d) => d.code === 'yara.compile');
  assert.deepEqual(failures.map((d) => d.path).sort(), ['bad.yar', 'include.yar']);
  assert.match(failures.find((d) => d.path === 'bad.yar')!.message, /error\[E\d+\]: unused pattern `\$a`/);
  assert.doesNotMatch(failures.find((d) => d.path === 'include.yar')!.message, /root:/);
  const run = lib.yaraSources();
  assert.deepEqual(
    run.sources.map((s) => s.name),
    ['good'],
  );
  assert.deepEqual(run.diagnostics.map((d) => d.path).sort(), ['bad.yar', 'include.yar']);
  assert.equal(run.checked, true);
  // Still retrievable: the endpoint returns text, whatever the compiler thinks.
  assert.deepEqual(lib.get('yara', ['bad']).results.bad, [YARA_BAD.trimEnd()]);
  lib.close();

  lib = await openRuleLibrary({ dataDir, env: {}, builtin: false, yaraChecker: checker });
  lib.yaraSources();
  assert.equal(calls, 3, 'verdicts persist with the index');
  lib.close();
  lib = await openRuleLibrary({ dataDir, env: {}, builtin: false });
  assert.equal(lib.yaraSources().sources.length, 3, 'without a checker nothing is left out');
  assert.equal(lib.yaraSources().checked, false);
  lib.close();
});

test('sigmaRules loads every variant of the selected packs and names, with each document traced to its file', async () => {
  const one = pack({ 'x.yml': sigma('X1'), 'y.yml': sigma('Y1') }, 'one');
  const two = pack({ 'x.yml': sigma('X2') }, 'two');
  const lib = await memory();
  await lib.addPack(one);
  await lib.addPack(two);
  const set = lib.sigmaRules({ packs: ['one', 'two'], names: ['x'] });
  assert.deepEqual(
    set.rules.map((r) => r.title),
    ['X1', 'X2'],
  );
  assert.deepEqual(set.origins.get(set.rules[1]!.source), {
    kind: 'sigma',
    name: 'x',
    pack: 'two',
    path: 'x.yml',
  });
  assert.ok(lib.sigmaRules().rules.length >= 43);
  rejects(() => lib.sigmaRules({ packs: ['nope'] }), 'INVALID_ARGUMENT', 400, /options\.packs/);
  rejects(() => lib.sigmaRules({ names: ['x', 'zz'] }), 'NOT_FOUND', 404, 'One or more rules not found');
  lib.close();
});

test('packs are named after their directory, kept unique, and removable; TAE_RULE_PACKS adds packs at open', async () => {
  const a = pack({ 'p.yar': YARA_OK }, 'rules');
  const b = pack({ 'q.yar': YARA_OK }, 'rules');
  const lib = await memory({ env: { TAE_RULE_PACKS: [a, b].join(':') } });
  assert.deepEqual(
    lib.packs().map((p) => [p.name, p.position]),
    [
      ['builtin', 0],
      ['rules', 1],
      ['rules-2', 2],
    ],
  );
  assert.equal(lib.removePack('rules'), true);
  assert.equal(lib.removePack('rules'), false);
  rejects(() => lib.get('yara', ['p']), 'NOT_FOUND', 404, 'One or more rules not found');
  assert.equal(
    (await lib.addPack(b, { name: 'other' })).pack.name,
    'rules-2',
    'a re-added pack keeps its name',
  );
  await assert.rejects(lib.addPack(a, { name: 'rules-2' }), (e: TaeError) => /options\.name/.test(e.message));
  rejects(() => lib.removePack('builtin'), 'INVALID_ARGUMENT', 400, /options\.name/);
  await assert.rejects(lib.addPack(join(root, 'missing')), (e: TaeError) => e.code === 'INPUT_UNREADABLE');
  lib.close();
  // Refused before the builtin pack is indexed too (the index is lazy).
  const fresh = await memory();
  await assert.rejects(fresh.addPack(builtinPackDir()!), (e: TaeError) => e.code === 'INVALID_ARGUMENT');
  fresh.close();
});

test('options are checked at the door and name the option', async () => {
  const bad: [RuleLibraryOptions, RegExp][] = [
    [{ dataDir: '' }, /options\.dataDir/],
    [{ packs: 'x' as unknown as string[] }, /options\.packs/],
    [{ builtin: 'yes' as unknown as boolean }, /options\.builtin/],
    [{ limits: { maxFiles: 0 } }, /options\.limits\.maxFiles/],
    [{ yaraChecker: { id: 'x' } as unknown as YaraChecker }, /options\.yaraChecker/],
  ];
  for (const [options, message] of bad)
    await assert.rejects(
      openRuleLibrary({ env: {}, ...options }),
      (e: TaeError) => e.code === 'INVALID_ARGUMENT' && message.test(e.message),
    );
});
