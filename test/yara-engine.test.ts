import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isTaeError } from '../src/errors/index.js';
import { runYara, type ScanOutcome, type YaraDataElement, YaraEngine } from '../src/yara/index.js';

const engine = new YaraEngine({ threads: 2, scanTimeoutMs: 1_000 });
const tmp = mkdtempSync(join(tmpdir(), 'tae-yara-engine-'));
after(async () => {
  await engine.close();
  rmSync(tmp, { recursive: true, force: true });
});

function errorText(e: YaraDataElement | undefined): string {
  assert.ok(e !== undefined && 'Error' in e, `expected an Error, got ${JSON.stringify(e)}`);
  return e.Error.message;
}

function matchCount(o: ScanOutcome): number {
  assert.equal(o.kind, 'matched', JSON.stringify(o));
  return o.kind === 'matched' ? o.matches.length : -1;
}

/** Quadratic in the input size: on megabytes it would run for hours. */
const FOREVER = `rule forever { condition: for all i in (0..filesize - 1) : ( for all j in (0..filesize - 1) : ( uint8(j) == uint8(i) ) ) }`;

/** A pack of distinct string, hex and regex rules. */
function pack(rules: number, salt: string): string {
  const out: string[] = [];
  for (let i = 0; i < rules; i++) {
    const kind = i % 3;
    const pattern =
      kind === 0
        ? `"${salt}_marker_${i}_text"`
        : kind === 1
          ? `{ 4D 5A ?? ${(i % 256).toString(16).padStart(2, '0')} [2-4] 50 45 }`
          : `/${salt}_re_${i}_[a-z]{3,8}\\d+/`;
    out.push(`rule r${i} { meta: author = "gen" strings: $a = ${pattern} condition: $a }`);
  }
  return out.join('\n');
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

describe('YaraEngine scans', () => {
  test('a rule that would scan forever is stopped by the timeout and reported, and the engine keeps working', async () => {
    const compiled = await engine.compile({ sources: FOREVER });
    assert.equal(compiled.kind, 'compiled');
    if (compiled.kind !== 'compiled') return;
    const data = Buffer.alloc(8 * 1024 * 1024, 0x41);
    const { value, ms } = await timed(() => engine.scan({ rules: compiled.rules, target: { bytes: data } }));
    assert.deepEqual(value, { kind: 'timeout', timeoutMs: 1_000 } satisfies ScanOutcome);
    assert.ok(ms < 5_000, `took ${ms} ms`);
    const again = await engine.scan({ rules: compiled.rules, target: { bytes: Buffer.from('AA') } });
    assert.equal(again.kind, 'matched');
  });

  test('the data endpoint reports a timed-out scan as an in-band Error element', async () => {
    const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
    const r = await runYara(
      { test_data: b64(Buffer.alloc(4 * 1024 * 1024, 0x42)), operation: 'run_rule', rule: b64(FOREVER) },
      { engine },
    );
    assert.match(errorText(r.results[0]), /^Yara scan timed out after 1 s/);
  });

  test('an aborted scan rejects with CANCELLED while the native scan is left to its timeout', async () => {
    const compiled = await engine.compile({ sources: FOREVER });
    if (compiled.kind !== 'compiled') assert.fail('did not compile');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      engine.scan({
        rules: compiled.rules,
        target: { bytes: Buffer.alloc(1 << 20, 1) },
        signal: controller.signal,
      }),
      (e) => isTaeError(e) && e.code === 'CANCELLED',
    );
  });

  test('options are validated at the door with messages naming the option', async () => {
    const compiled = await engine.compile({ sources: 'rule t { condition: true }' });
    if (compiled.kind !== 'compiled') assert.fail('did not compile');
    await assert.rejects(
      engine.scan({ rules: compiled.rules, target: { bytes: Buffer.alloc(1) }, timeoutMs: 0 }),
      /options\.timeoutMs/,
    );
    await assert.rejects(
      engine.scan({ rules: compiled.rules, target: {} as { path: string } }),
      /options\.target/,
    );
    await assert.rejects(
      engine.compile({ sources: 'rule t { condition: true }', disableWarnings: ['no_such_warning'] }),
      (e) => isTaeError(e) && e.code === 'INVALID_ARGUMENT' && /not a valid warning code/.test(e.message),
    );
    await assert.rejects(engine.compile({ sources: [] }), /options\.sources/);
    assert.throws(() => new YaraEngine({ threads: 0 }), /options\.threads/);
    assert.throws(() => new YaraEngine({ maxMatchesPerPattern: 2_000_000 }), /options\.maxMatchesPerPattern/);
  });

  test('variables declared at compile time take per-scan values', async () => {
    const compiled = await engine.compile({
      sources: 'rule named { condition: filename matches /\\.exe$/ and size_hint > 10 }',
      variables: { filename: '', size_hint: 0 },
    });
    if (compiled.kind !== 'compiled') assert.fail('did not compile');
    const scan = (filename: string) =>
      engine.scan({
        rules: compiled.rules,
        target: { bytes: Buffer.alloc(1) },
        variables: { filename, size_hint: 11 },
      });
    assert.equal(matchCount(await scan('evil.exe')), 1);
    assert.equal(matchCount(await scan('notes.txt')), 0);
  });
});

describe('YaraEngine compiles', () => {
  test('diagnostics carry the yara-x code, title, position and text', async () => {
    const outcome = await engine.compile({
      sources: 'rule u {\n  strings: $a = "abc" $b = "xyz"\n  condition: $a\n}',
    });
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind !== 'failed') return;
    const [e] = outcome.errors;
    assert.deepEqual(
      { ...e, text: undefined },
      {
        severity: 'error',
        code: 'E022',
        title: 'unused pattern `$b`',
        line: 2,
        column: 23,
        text: undefined,
      },
    );
    assert.match(e!.text, /this pattern was not used in the condition/);
  });

  test('includes are refused, so a rule cannot make the engine read a file', async () => {
    const outcome = await engine.compile({ sources: 'include "/etc/passwd"\nrule t { condition: true }' });
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.equal(outcome.errors[0]!.code, 'E044');
  });

  test('invalid sources are skipped with their origin when asked, and fail the set by default', async () => {
    const sources = [
      { source: 'rule good { condition: true }', namespace: 'a', origin: 'good.yar' },
      { source: 'import "androguard" rule old { condition: true }', namespace: 'b', origin: 'old.yar' },
    ];
    const failed = await engine.compile({ sources });
    assert.equal(failed.kind, 'failed');
    if (failed.kind === 'failed')
      assert.deepEqual(
        failed.errors.map((e) => [e.origin, e.code]),
        [['old.yar', 'E010']],
      );
    const skipped = await engine.compile({ sources, invalidSources: 'skip' });
    assert.equal(skipped.kind, 'compiled');
    if (skipped.kind !== 'compiled') return;
    assert.deepEqual(
      skipped.rules.skipped.map((e) => [e.origin, e.code]),
      [['old.yar', 'E010']],
    );
    const scanned = await engine.scan({ rules: skipped.rules, target: { bytes: Buffer.alloc(0) } });
    assert.deepEqual(scanned.kind === 'matched' && scanned.matches.map((m) => `${m.namespace}:${m.rule}`), [
      'a:good',
    ]);
  });

  test('a second compile of the same content is served from memory, measurably faster', async () => {
    const source = pack(600, 'memory');
    const first = await timed(() => engine.compile({ sources: source }));
    const second = await timed(() => engine.compile({ sources: source }));
    assert.equal(first.value.cache, 'miss');
    assert.equal(second.value.cache, 'memory');
    assert.ok(second.ms * 10 < first.ms, `cold ${first.ms.toFixed(1)} ms, cached ${second.ms.toFixed(1)} ms`);
    assert.equal(
      second.value.kind === 'compiled' && first.value.kind === 'compiled' && second.value.rules.hash,
      first.value.kind === 'compiled' && first.value.rules.hash,
    );
    const other = await engine.compile({ sources: source, disableWarnings: ['slow_pattern'] });
    assert.equal(other.cache, 'miss', 'different options are a different rule set');
  });

  test('concurrent compiles of the same content share one compilation', async () => {
    const source = pack(50, 'concurrent');
    const [a, b] = await Promise.all([
      engine.compile({ sources: source }),
      engine.compile({ sources: source }),
    ]);
    assert.equal(a, b);
  });

  test('serialized rules persist only in the directory the caller names, and a corrupt file is ignored', async () => {
    const dir = join(tmp, 'cache');
    const source = pack(300, 'disk');
    const first = new YaraEngine({ threads: 1, cacheDir: dir });
    const cold = await timed(() => first.compile({ sources: source }));
    await first.close();
    assert.equal(cold.value.cache, 'miss');
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^[0-9a-f]{64}\.yarx$/);

    const second = new YaraEngine({ threads: 1, cacheDir: dir });
    const warm = await timed(() => second.compile({ sources: source }));
    assert.equal(warm.value.cache, 'disk');
    assert.ok(warm.ms < cold.ms, `disk ${warm.ms.toFixed(1)} ms vs compile ${cold.ms.toFixed(1)} ms`);
    if (warm.value.kind !== 'compiled') assert.fail('not compiled');
    const rules = warm.value.rules;
    const target = { bytes: Buffer.from('xx disk_marker_3_text xx') };
    // This worker never compiled the set: its first scan deserializes it, later scans reuse it.
    const firstScan = await timed(() => second.scan({ rules, target }));
    const laterScan = await timed(() => second.scan({ rules, target }));
    assert.ok(
      laterScan.ms * 3 < firstScan.ms,
      `first ${firstScan.ms.toFixed(1)} ms, later ${laterScan.ms.toFixed(1)} ms`,
    );
    const hit = firstScan.value;
    assert.deepEqual(hit.kind === 'matched' && hit.matches.map((m) => m.rule), ['r3']);
    await second.close();

    const path = join(dir, files[0]!);
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    const third = new YaraEngine({ threads: 1, cacheDir: dir });
    assert.equal((await third.compile({ sources: source })).cache, 'miss');
    await third.close();
    assert.ok(readFileSync(path).length > 100, 'the corrupt entry was rewritten');

    const noDir = new YaraEngine({ threads: 1 });
    assert.equal((await noDir.compile({ sources: source })).cache, 'miss');
    await noDir.close();
    assert.ok(!existsSync(join(process.cwd(), `${files[0]}`)));
  });
});
