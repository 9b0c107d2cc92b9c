import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { writePe } from '../fixtures/pe/index.js';
import { isTaeError } from '../src/errors/index.js';
import { MAX_FILE_ANALYSIS_BYTES, scanFiles, type YaraDataElement, YaraEngine } from '../src/yara/index.js';
import { matchesGolden } from './helpers/golden.js';

const engine = new YaraEngine({ threads: 2, scanTimeoutMs: 1_000 });
const tmp = mkdtempSync(join(tmpdir(), 'tae-yara-files-'));
after(async () => {
  await engine.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The rows of a Table element (failing the test on any other element). */
function rows(e: YaraDataElement | undefined): readonly (readonly string[])[] {
  assert.ok(e !== undefined && 'Table' in e, `expected a Table, got ${JSON.stringify(e)}`);
  return e.Table.data;
}

function errorText(e: YaraDataElement | undefined): string {
  assert.ok(e !== undefined && 'Error' in e, `expected an Error, got ${JSON.stringify(e)}`);
  return e.Error.message;
}

const RULE = `import "pe"
rule injector : pe {
  meta:
    description = "PE importing VirtualAlloc and CreateRemoteThread"
    author = "tae tests"
  condition:
    pe.imports("kernel32.dll", "VirtualAlloc") and pe.imports("kernel32.dll", "CreateRemoteThread")
}
rule mimikatz_strings {
  meta:
    Description = "mimikatz command names"
  strings:
    $a = "sekurlsa::logonpasswords" ascii wide
  condition:
    $a
}`;

const injector = writePe({
  format: 'pe32+',
  imports: [{ dll: 'KERNEL32.dll', functions: ['VirtualAlloc', 'CreateRemoteThread'] }],
  data: Buffer.from('sekurlsa::logonpasswords', 'utf16le'),
});
const write = (name: string, bytes: Uint8Array | string) => {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
};

async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (e) {
    assert.ok(isTaeError(e));
    return { code: e.code, status: e.status, bodyFormat: e.bodyFormat, message: e.message };
  }
  assert.fail('accepted');
}

describe('scanFiles (Yara file job)', () => {
  test('matches of every file fill the Yara Analysis Results table, then the custom rule metadata', async () => {
    const r = await scanFiles({
      engine,
      rules: { kind: 'custom', source: RULE },
      files: [
        { name: 'dropper.exe', path: write('dropper.exe', injector) },
        { name: 'notes.txt', path: write('notes.txt', 'meeting at 10') },
        { name: 'dump.log', bytes: Buffer.from('> sekurlsa::logonpasswords\n') },
      ],
    });
    assert.deepEqual(r.stats, {
      files: 3,
      bytes: injector.length + 'meeting at 10'.length + '> sekurlsa::logonpasswords\n'.length,
      matches: 3,
      failedFiles: 0,
    });
    assert.deepEqual(r.insights[0], {
      Table: {
        title: 'Yara Analysis Results',
        data: [
          ['File', 'Rule', 'Description', 'Author'],
          ['dropper.exe', 'injector', 'PE importing VirtualAlloc and CreateRemoteThread', 'tae tests'],
          ['dropper.exe', 'mimikatz_strings', 'mimikatz command names', ''],
          ['dump.log', 'mimikatz_strings', 'mimikatz command names', ''],
        ],
        category: 'Yara',
      },
    });
    assert.equal(r.insights.length, 2);
    matchesGolden('yara-file-job.json', `${JSON.stringify(r.insights, null, 2)}\n`);
  });

  test('community rules produce the table alone', async () => {
    const compiled = await engine.compile({ sources: [{ source: RULE, namespace: 'pack' }] });
    assert.equal(compiled.kind, 'compiled');
    if (compiled.kind !== 'compiled') assert.fail('did not compile');
    const rules = compiled.rules;
    const r = await scanFiles({
      engine,
      rules: { kind: 'community', rules },
      files: [{ name: 'a.exe', bytes: injector }],
    });
    assert.equal(r.insights.length, 1);
    assert.equal(rows(r.insights[0]).length, 3);
  });

  test('a file that cannot be read or times out becomes an Error insight beside the others', async () => {
    const slow = `${RULE}\nrule forever { condition: for all i in (0..filesize - 1) : ( for all j in (0..filesize - 1) : ( uint8(j) == uint8(i) ) ) }`;
    const r = await scanFiles({
      engine,
      rules: { kind: 'custom', source: slow },
      files: [
        { name: 'gone.bin', path: join(tmp, 'does-not-exist') },
        { name: 'big.bin', bytes: Buffer.alloc(4 * 1024 * 1024, 7) },
        { name: 'dump.log', bytes: Buffer.from('sekurlsa::logonpasswords') },
      ],
    });
    const messages = r.insights.filter((i) => 'Error' in i).map((i) => errorText(i));
    assert.equal(messages.length, 2);
    assert.match(messages[0]!, /^gone\.bin: cannot read the file: ENOENT/);
    assert.match(messages[1]!, /^big\.bin: Yara scan timed out after 1 s/);
    assert.deepEqual(
      rows(r.insights[0])
        .slice(1)
        .map((row) => row.slice(0, 2)),
      [['dump.log', 'mimikatz_strings']],
    );
    assert.equal(r.stats.failedFiles, 2);
  });

  test('a custom rule that does not compile gives an Error and the metadata, and scans nothing', async () => {
    const r = await scanFiles({
      engine,
      rules: { kind: 'custom', source: 'rule broken { strings: $a = "x" condition: true }' },
      files: [{ name: 'a', bytes: Buffer.from('x') }],
    });
    assert.deepEqual(
      r.compileErrors.map((e) => e.code),
      ['E022'],
    );
    assert.deepEqual(Object.keys(r.insights[0]!), ['Error']);
    assert.deepEqual(Object.keys(r.insights[1]!), ['Metadata']);
    assert.equal(r.stats.files, 0);
  });

  test('more than 250 MB in total is refused before any scan with the spec message as JSON', async () => {
    const sparse = join(tmp, 'sparse.bin');
    writeFileSync(sparse, '');
    truncateSync(sparse, MAX_FILE_ANALYSIS_BYTES - 10);
    const files = [
      { name: 'sparse.bin', path: sparse },
      { name: 'tail.bin', bytes: Buffer.alloc(11) },
    ];
    const refused = await refusal(scanFiles({ engine, rules: { kind: 'custom', source: RULE }, files }));
    assert.deepEqual(refused, {
      code: 'INVALID_ARGUMENT',
      status: 400,
      bodyFormat: 'json',
      message: 'Max File analysis size limit exceeded (250MB)',
    });
  });

  test('no files, or more than 100, are refused with 400 as JSON', async () => {
    const rules = { kind: 'custom', source: RULE } as const;
    const none = await refusal(scanFiles({ engine, rules, files: [] }));
    assert.deepEqual(none, {
      code: 'INVALID_ARGUMENT',
      status: 400,
      bodyFormat: 'json',
      message: 'No file IDs provided',
    });
    const many = Array.from({ length: 101 }, (_, i) => ({ name: `${i}`, bytes: Buffer.alloc(1) }));
    assert.equal(
      (await refusal(scanFiles({ engine, rules, files: many }))).message,
      'Too many file IDs provided',
    );
  });

  test('per-file variables reach the scan (signature-base style filename rules)', async () => {
    const compiled = await engine.compile({
      sources:
        'rule exe_name { meta: description = "named like an executable" condition: filename matches /\\.exe$/ }',
      variables: { filename: '' },
    });
    if (compiled.kind !== 'compiled') assert.fail('did not compile');
    const r = await scanFiles({
      engine,
      rules: { kind: 'community', rules: compiled.rules },
      files: [
        { name: 'a.exe', bytes: Buffer.alloc(1) },
        { name: 'b.txt', bytes: Buffer.alloc(1) },
      ],
      variables: (f) => ({ filename: f.name }),
    });
    assert.deepEqual(rows(r.insights[0]).slice(1), [['a.exe', 'exe_name', 'named like an executable', '']]);
  });
});
