/**
 * Zip rule packs, written by a tiny zip writer below (stored or deflated entries, with the
 * option to lie in the headers): release archives index like directories; archives whose
 * entries escape, or that are too big or too many, are refused as a whole with a clear message.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import { TaeError } from '../src/errors/index.js';
import { openRuleLibrary, type RuleLibraryOptions } from '../src/rules/index.js';

interface ZipEntry {
  readonly name: string;
  readonly data?: string | Uint8Array;
  readonly method?: 0 | 8;
  /** Uncompressed size written in the headers, when it should lie. */
  readonly declaredSize?: number;
}

/** A zip archive (local headers, central directory, end record) with UTF-8 names. */
function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(e.data ?? '');
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name, 'utf8');
    const size = e.declaredSize ?? raw.length;
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const root = mkdtempSync(join(tmpdir(), 'tae-zip-'));
function zipFile(name: string, entries: readonly ZipEntry[]): string {
  const path = join(root, name);
  writeFileSync(path, zip(entries));
  return path;
}
const memory = (o: RuleLibraryOptions = {}) =>
  openRuleLibrary({ dataDir: false, env: {}, builtin: false, ...o });

const SIGMA = [
  'title: Zipped Rule',
  'id: 0c8d7e6f-1a2b-4c3d-9e8f-7a6b5c4d3e2f',
  'logsource:',
  '  product: windows',
  '  service: security',
  'detection:',
  '  selection:',
  '    EventID: 4720',
  '  condition: selection',
  'level: low',
];
const YARA = [
  'rule zipped_rule',
  '{',
  '    strings:',
  '        $a = "needle"',
  '    condition:',
  '        $a',
  '}',
];

test('a release archive indexes like a directory: nested rule files, junk and hidden entries ignored', async () => {
  const path = zipFile('sigma-release-r2026.zip', [
    { name: 'sigma-release/' },
    { name: 'sigma-release/rules/windows/win_zip_user_created.yml', data: `${SIGMA.join('\r\n')}\r\n` },
    { name: 'sigma-release/yara/zipped_rule.yar', data: YARA.join('\n'), method: 0 },
    { name: 'sigma-release/README.md', data: '# readme' },
    { name: '__MACOSX/sigma-release/._win_zip_user_created.yml', data: 'junk' },
    { name: 'sigma-release/.github/workflows/ci.yml', data: 'on: push' },
  ]);
  const lib = await memory();
  const report = await lib.addPack(path);
  assert.equal(report.pack.name, 'sigma-release-r2026');
  assert.equal(report.pack.format, 'zip');
  assert.deepEqual([report.pack.sigma, report.pack.yara, report.skipped], [1, 1, 0]);
  assert.deepEqual(lib.get('sigma', ['win_zip_user_created']).results, { win_zip_user_created: SIGMA });
  assert.deepEqual(lib.get('yara', ['zipped_rule']).results, { zipped_rule: YARA });
  assert.equal(lib.list({ kind: 'sigma' })[0]?.path, 'sigma-release/rules/windows/win_zip_user_created.yml');

  assert.equal((await lib.addPack(path)).unchanged, true);
  zipFile('sigma-release-r2026.zip', [
    {
      name: 'sigma-release/rules/windows/win_zip_user_created.yml',
      data: SIGMA.join('\n').replace('4720', '4722'),
    },
    { name: 'sigma-release/yara/zipped_rule.yar', data: YARA.join('\n'), method: 0 },
  ]);
  const changed = await lib.addPack(path);
  assert.deepEqual([changed.unchanged, changed.added, changed.updated, changed.removed], [false, 0, 1, 0]);
  assert.ok(
    lib.get('sigma', ['win_zip_user_created']).results.win_zip_user_created?.includes('    EventID: 4722'),
  );
  lib.close();
});

test('an archive with an entry that escapes it is refused as a whole, naming the entry', async () => {
  const cases: [string, RegExp][] = [
    ['../evil.yml', /entry "\.\.\/evil\.yml" escapes the archive with '\.\.'/],
    ['rules/../../evil.yml', /escapes the archive/],
    ['..\\evil.yml', /escapes the archive/],
    ['/etc/cron.d/evil.yml', /entry "\/etc\/cron\.d\/evil\.yml" has an absolute path/],
    ['C:\\Windows\\evil.yml', /has an absolute path/],
    ['rules/evil\u0000.yml', /control characters/],
  ];
  const lib = await memory();
  for (const [name, message] of cases) {
    const path = zipFile('hostile.zip', [
      { name: 'rules/good.yml', data: SIGMA.join('\n') },
      { name, data: SIGMA.join('\n') },
    ]);
    await assert.rejects(lib.addPack(path), (e: unknown) => {
      assert.ok(e instanceof TaeError);
      assert.equal(e.code, 'INPUT_UNREADABLE');
      assert.match(e.message, /^zip pack hostile\.zip rejected: /);
      assert.match(e.message, message);
      return true;
    });
  }
  assert.deepEqual(lib.packs(), [], 'nothing of a refused archive is indexed');
  lib.close();
});

test('an archive over the uncompressed-size or entry-count limit is refused before it is inflated', async () => {
  const bomb = zipFile('bomb.zip', [{ name: 'rules/zeros.yml', data: new Uint8Array(4 << 20) }]);
  const lib = await memory({ limits: { maxTotalBytes: 1 << 20 } });
  await assert.rejects(lib.addPack(bomb), (e: TaeError) => {
    assert.equal(e.code, 'TOO_LARGE');
    assert.equal(e.status, 413);
    assert.match(e.message, /rejected: more than 1048576 uncompressed bytes/);
    return true;
  });
  lib.close();

  const many = zipFile(
    'many.zip',
    Array.from({ length: 11 }, (_, i) => ({ name: `r${i}.yar`, data: YARA.join('\n') })),
  );
  const small = await memory({ limits: { maxZipEntries: 10 } });
  await assert.rejects(
    small.addPack(many),
    (e: TaeError) => e.code === 'TOO_LARGE' && /more than 10 zip entries/.test(e.message),
  );
  small.close();
});

test('an entry larger than the per-file limit, or inflating past its declared size, is skipped with a diagnostic', async () => {
  const path = zipFile('mixed.zip', [
    { name: 'ok.yar', data: YARA.join('\n') },
    { name: 'large.yar', data: `${YARA.join('\n')}\n//${'x'.repeat(10_000)}` },
    { name: 'liar.yar', data: 'x'.repeat(50_000), declaredSize: 100 },
  ]);
  const lib = await memory({ limits: { maxFileBytes: 4096 } });
  const report = await lib.addPack(path);
  const codes = Object.fromEntries(report.diagnostics.map((d) => [d.path, d.code]));
  assert.deepEqual(codes, { 'large.yar': 'file.too_large', 'liar.yar': 'file.unreadable' });
  assert.deepEqual(
    lib.list().map((r) => r.name),
    ['ok'],
  );
  lib.close();
});

test('a file that is not a zip archive is refused with the reason', async () => {
  const path = join(root, 'notes.zip');
  writeFileSync(path, 'just text, no archive');
  const lib = await memory();
  await assert.rejects(
    lib.addPack(path),
    (e: TaeError) =>
      e.code === 'INPUT_UNREADABLE' && /notes\.zip rejected: not a readable zip archive/.test(e.message),
  );
  lib.close();
});
