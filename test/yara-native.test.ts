import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import {
  loadYaraX,
  type NativeRules,
  YARA_X_PACKAGE,
  type YaraXModule,
  yaraXLoader,
  yaraXVersion,
} from '../native/yara-x.js';
import { isTaeError } from '../src/errors/index.js';
import '../src/yara/index.js';

const loadedBinaries = () =>
  Object.keys(createRequire(import.meta.url).cache).filter(
    (p) => p.endsWith('.node') && p.includes('yara-x'),
  );
const loadedAtImport = loadedBinaries();

const MODULE_FUNCTIONS = [
  'compile',
  'validate',
  'create',
  'fromFile',
  'deserialize',
  'compileToWasm',
  'compileFileToWasm',
] as const satisfies readonly (keyof YaraXModule)[];
const RULES_METHODS = [
  'scan',
  'scanFile',
  'scanAsync',
  'scanFileAsync',
  'setTimeout',
  'setMaxMatchesPerPattern',
  'setMatchContextSize',
  'setUseMmap',
  'getWarnings',
  'getCompilationErrors',
  'getIgnoredRules',
  'addRuleSource',
  'addRuleSources',
  'addRuleFile',
  'defineVariable',
  'serialize',
  'emitWasmFile',
  'emitWasmFileAsync',
] as const satisfies readonly (keyof NativeRules)[];

const tmp = mkdtempSync(join(tmpdir(), 'tae-yara-native-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const names = (hits: { ruleIdentifier: string; namespace: string }[]) =>
  hits.map((h) => `${h.namespace}:${h.ruleIdentifier}`);

describe('native/yara-x.ts loader', () => {
  test('importing the yara module loads no native binary', () => {
    assert.deepEqual(loadedAtImport, []);
  });

  test('a missing package fails on first use with NATIVE_UNAVAILABLE naming the package', () => {
    const load = yaraXLoader('@litko/yara-x-no-such-platform');
    assert.throws(
      load,
      (e) =>
        isTaeError(e) &&
        e.code === 'NATIVE_UNAVAILABLE' &&
        e.status === 501 &&
        /@litko\/yara-x-no-such-platform/.test(e.message),
    );
    assert.equal(yaraXVersion('@litko/yara-x-no-such-platform'), null);
  });

  test('the installed binary is package 0.7.2 and loads once', () => {
    assert.equal(yaraXVersion(), '0.7.2');
    assert.equal(loadYaraX(), loadYaraX());
    assert.ok(loadedBinaries().some((p) => p.includes(YARA_X_PACKAGE.replace('@litko/', ''))));
  });
});

describe('the declarations match the 0.7.2 binary', () => {
  const y = loadYaraX();

  test('every declared module function and rules method exists, and no undeclared method', () => {
    for (const f of MODULE_FUNCTIONS) assert.equal(typeof y[f], 'function', f);
    assert.throws(() => new (y.YaraX as unknown as new () => unknown)(), /no `constructor`/);
    const proto = Object.getPrototypeOf(y.create()) as Record<string, unknown>;
    const methods = Object.getOwnPropertyNames(proto)
      .filter((m) => m !== 'constructor')
      .sort();
    assert.deepEqual(methods, [...RULES_METHODS].sort());
  });

  test('compile and scan return rule matches with meta of every type, tags and match positions', () => {
    const rules = y.compile(
      'rule r : t1 t2 { meta: s = "text" i = 42 f = 1.5 b = true strings: $a = "abc" condition: $a }',
    );
    const [hit] = rules.scan(Buffer.from('..abc..'));
    assert.deepEqual(hit, {
      ruleIdentifier: 'r',
      namespace: 'default',
      meta: { s: 'text', i: 42, f: 1.5, b: true },
      tags: ['t1', 't2'],
      matches: [{ offset: 2, length: 3, data: 'abc', identifier: '$a' }],
    });
    rules.setMatchContextSize(2);
    assert.deepEqual(rules.scan(new Uint8Array(Buffer.from('..abc..')))[0]!.matches[0], {
      offset: 2,
      length: 3,
      data: 'abc',
      identifier: '$a',
      contextData: '..abc..',
      contextMatchOffset: 2,
    });
  });

  test('a compile error throws the first report with its code; validate returns every error and warning', () => {
    const source = 'rule a { strings: $a = "abc" $b = "x" condition: $a } rule b { condition: nope }';
    assert.throws(
      () => y.compile(source),
      /^Error: Compilation error \(E022\): error\[E022\]: unused pattern `\$b`/,
    );
    const r = y.validate(source);
    assert.deepEqual(
      r.errors.map((e) => e.code),
      ['E022', 'E009'],
    );
    assert.deepEqual(
      r.warnings.map((w) => w.code),
      ['slow_pattern'],
    );
  });

  test('compiler options: warnings switches, banned and ignored modules, slow patterns, regex syntax, includes', () => {
    const slow = 'rule a { strings: $a = "a" $b = "b" condition: all of them }';
    assert.equal(y.compile(slow).getWarnings().length, 2);
    assert.equal(y.compile(slow, { maxWarnings: 1 }).getWarnings().length, 1);
    assert.equal(y.compile(slow, { disableWarnings: ['slow_pattern'] }).getWarnings().length, 0);
    assert.equal(y.compile(slow, { enableAllWarnings: false }).getWarnings().length, 0);
    assert.throws(
      () => y.compile(slow, { disableWarnings: ['no_such_warning'] }),
      /not a valid warning code/,
    );
    assert.throws(() => y.compile(slow, { errorOnSlowPattern: true }), /E018/);
    const pe = 'import "pe" rule p { condition: pe.is_pe }';
    assert.throws(
      () => y.compile(pe, { bannedModules: [{ name: 'pe', errorTitle: 'pe is off', errorMessage: 'no' }] }),
      /E100.*pe is off/,
    );
    assert.doesNotThrow(() =>
      y.compile('import "cuckoo" rule c { condition: true }', { ignoreModules: ['cuckoo'] }),
    );
    assert.throws(() => y.compile('rule r { strings: $a = /a\\Rb/ condition: $a }'), /E014/);
    assert.doesNotThrow(() =>
      y.compile('rule r { strings: $a = /a\\Rb/ condition: $a }', { relaxedReSyntax: true }),
    );
    assert.throws(
      () => y.compile('include "/etc/hostname" rule r { condition: true }', { enableIncludes: false }),
      /E044/,
    );
    assert.doesNotThrow(() =>
      y.compile('rule r { condition: true }', { conditionOptimization: true, features: [] }),
    );
  });

  test('namespaces keep same-named rules apart', () => {
    const rules = y.create();
    rules.addRuleSource('rule dup { condition: true }', 'one');
    rules.addRuleSources([
      { source: 'rule dup { condition: true }', namespace: 'two' },
      { source: 'rule other { condition: true }' },
    ]);
    assert.deepEqual(names(rules.scan(Buffer.alloc(0))), ['one:dup', 'two:dup', 'default:other']);
    assert.deepEqual(
      names(y.compile('rule n { condition: true }', { namespace: 'ns' }).scan(Buffer.alloc(0))),
      ['ns:n'],
    );
  });

  test('variables: defined at compile time, overridden per scan, or set with defineVariable', () => {
    const rules = y.compile('rule v { condition: name == "evil.exe" and size > 5 and flag }', {
      defineVariables: { name: '', size: 0, flag: true },
    });
    assert.equal(rules.scan(Buffer.alloc(1)).length, 0);
    assert.equal(rules.scan(Buffer.alloc(1), { name: 'evil.exe', size: 10 }).length, 1);
    assert.throws(() => rules.scan(Buffer.alloc(1), { undeclared: 1 }), /variable `undeclared` not defined/);
    const named = y.compile('rule w { condition: name == "x" }', { defineVariables: { name: '' } });
    named.defineVariable('name', 'x');
    assert.equal(named.scan(Buffer.alloc(1)).length, 1);
  });

  test('the timeout stops a scan with code Cancelled, in whole seconds; the rules stay usable', () => {
    const rules = y.compile(
      'rule slow { condition: for all i in (0..filesize - 1) : ( for all j in (0..filesize - 1) : ( uint8(j) == uint8(i) ) ) }',
    );
    rules.setTimeout(1);
    const start = performance.now();
    assert.throws(
      () => rules.scan(Buffer.alloc(1 << 20, 1)),
      (e: Error & { code?: string }) => e.code === 'Cancelled' && e.message === 'Scan timed out',
    );
    const ms = performance.now() - start;
    assert.ok(ms > 500 && ms < 3_000, `${ms} ms`);
    rules.setTimeout(5_000);
    assert.equal(rules.scan(Buffer.alloc(3, 1)).length, 1);
  });

  test('max matches per pattern caps stored matches, and count conditions see the cap', () => {
    const rules = y.compile('rule many { strings: $a = "ab" condition: #a > 5 }');
    assert.equal(rules.scan(Buffer.from('ab'.repeat(10)))[0]!.matches.length, 10);
    rules.setMaxMatchesPerPattern(3);
    assert.equal(rules.scan(Buffer.from('ab'.repeat(10))).length, 0);
  });

  test('serialize and deserialize round-trip; foreign bytes are refused', () => {
    const rules = y.compile('rule s { meta: a = "b" strings: $x = "needle" condition: $x }');
    const bytes = rules.serialize();
    assert.ok(Buffer.isBuffer(bytes));
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
    shared.set(bytes);
    const again = y.deserialize(shared);
    assert.deepEqual(names(again.scan(Buffer.from('a needle'))), ['default:s']);
    assert.deepEqual(again.getWarnings(), []);
    assert.throws(() => y.deserialize(Buffer.from('not rules')), /Failed to deserialize rules/);
  });

  test('files: fromFile, addRuleFile, scanFile with and without mmap, async scans, wasm output', async () => {
    const ruleFile = join(tmp, 'r.yar');
    writeFileSync(ruleFile, 'rule f { strings: $a = "needle" condition: $a }');
    const data = join(tmp, 'data.bin');
    writeFileSync(data, 'hay needle hay');
    const rules = y.fromFile(ruleFile);
    assert.equal(rules.scanFile(data).length, 1);
    rules.setUseMmap(false);
    assert.equal(rules.scanFile(data).length, 1);
    assert.equal((await rules.scanAsync(Buffer.from('needle'))).length, 1);
    assert.equal((await rules.scanFileAsync(data)).length, 1);
    assert.throws(() => rules.scanFile(join(tmp, 'missing')), /No such file or directory/);
    const extra = y.create();
    extra.addRuleFile(ruleFile, 'files');
    assert.deepEqual(names(extra.scan(Buffer.from('needle'))), ['files:f']);
    assert.deepEqual(extra.getCompilationErrors(), []);
    assert.ok(Array.isArray(extra.getIgnoredRules()));
    y.compileToWasm('rule w { condition: true }', join(tmp, 'a.wasm'));
    y.compileFileToWasm(ruleFile, join(tmp, 'b.wasm'));
    rules.emitWasmFile(join(tmp, 'c.wasm'));
    await rules.emitWasmFileAsync(join(tmp, 'd.wasm'));
    for (const f of ['a', 'b', 'c', 'd'])
      assert.ok(existsSync(join(tmp, `${f}.wasm`)) && statSync(join(tmp, `${f}.wasm`)).size > 0);
  });
});
