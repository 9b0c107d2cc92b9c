import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { writePe } from '../fixtures/pe/index.js';
import { YaraEngine } from '../src/yara/index.js';

const engine = new YaraEngine({ threads: 1, scanTimeoutMs: 10_000 });
after(() => engine.close());

/** Names of the rules in `source` that match `target`. */
async function matching(source: string, target: { bytes: Uint8Array } | { path: string }): Promise<string[]> {
  const compiled = await engine.compile({ sources: source });
  if (compiled.kind === 'failed') assert.fail(compiled.errors.map((e) => e.text).join('\n'));
  const scanned = await engine.scan({ rules: compiled.rules, target });
  assert.equal(scanned.kind, 'matched', JSON.stringify(scanned));
  return scanned.kind === 'matched' ? scanned.matches.map((m) => m.rule).sort() : [];
}

const IMPORTS = [
  { dll: 'KERNEL32.dll', functions: ['VirtualAlloc', 'CreateRemoteThread'] },
  { dll: 'WS2_32.dll', functions: ['connect'] },
];
const PE_RULES = `import "pe"
rule is_pe { condition: pe.is_pe }
rule pe32 { condition: pe.is_32bit() and pe.machine == pe.MACHINE_I386 }
rule pe64 { condition: pe.is_64bit() and pe.machine == pe.MACHINE_AMD64 }
rule dll { condition: pe.is_dll() }
rule injector_imports { condition: pe.imports("kernel32.dll", "VirtualAlloc") and pe.imports("kernel32.dll", "CreateRemoteThread") }
rule network_import { condition: pe.imports("ws2_32.dll", "connect") }
rule exports_install { condition: pe.exports("Install") and pe.dll_name == "payload.dll" }
rule valid_checksum { condition: pe.checksum == pe.calculate_checksum() }
rule three_sections { condition: pe.number_of_sections == 3 and pe.sections[0].name == ".text" and pe.sections[2].name == ".data" }
rule built_2024 { condition: pe.timestamp == 1704067200 }
rule console_app { condition: pe.subsystem == pe.SUBSYSTEM_WINDOWS_CUI }
rule entry_in_text { condition: pe.entry_point == pe.sections[0].raw_data_offset }`;

const tmp = mkdtempSync(join(tmpdir(), 'tae-yara-pe-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const hasObjdump = (() => {
  try {
    execFileSync('objdump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('YARA modules on real binaries', () => {
  test('pe conditions hold on a PE32 executable from the fixture writer', async () => {
    const exe = writePe({ format: 'pe32', imports: IMPORTS, data: Buffer.from('config') });
    const hits = await matching(PE_RULES, { bytes: exe });
    assert.deepEqual(hits, [
      'built_2024',
      'console_app',
      'entry_in_text',
      'injector_imports',
      'is_pe',
      'network_import',
      'pe32',
      'three_sections',
      'valid_checksum',
    ]);
  });

  test('pe conditions hold on a PE32+ DLL with exports, scanned from a file', async () => {
    const path = join(tmp, 'payload.dll');
    writeFileSync(
      path,
      writePe({
        format: 'pe32+',
        dll: true,
        imports: IMPORTS,
        exports: { name: 'payload.dll', functions: ['Run', 'Install'] },
        data: Buffer.from('x'),
      }),
    );
    const hits = await matching(PE_RULES, { path });
    assert.deepEqual(hits, [
      'built_2024',
      'console_app',
      'dll',
      'entry_in_text',
      'exports_install',
      'injector_imports',
      'is_pe',
      'network_import',
      'pe64',
      'three_sections',
      'valid_checksum',
    ]);
  });

  test('objdump reads the fixture PE files the same way', {
    skip: hasObjdump ? false : 'objdump not installed',
  }, () => {
    const path = join(tmp, 'check.exe');
    writeFileSync(path, writePe({ format: 'pe32+', imports: IMPORTS }));
    const out = execFileSync('objdump', ['-p', path], { encoding: 'utf8' });
    assert.match(out, /file format pei-x86-64/);
    assert.match(out, /Magic\s+020b\s+\(PE32\+\)/);
    assert.match(out, /DLL Name: KERNEL32\.dll[\s\S]*VirtualAlloc[\s\S]*CreateRemoteThread/);
    assert.match(out, /DLL Name: WS2_32\.dll[\s\S]*connect/);
  });

  test('elf conditions hold on /bin/ls', {
    skip: existsSync('/bin/ls') ? false : '/bin/ls not present',
  }, async () => {
    const hits = await matching(
      `import "elf"
       rule x86_64 { condition: elf.machine == elf.EM_X86_64 }
       rule has_text { condition: for any s in elf.sections : (s.name == ".text") }
       rule dynamic { condition: elf.type == elf.ET_DYN or elf.type == elf.ET_EXEC }
       rule is_arm { condition: elf.machine == elf.EM_ARM }`,
      { path: '/bin/ls' },
    );
    const expected = process.arch === 'x64' ? ['dynamic', 'has_text', 'x86_64'] : ['dynamic', 'has_text'];
    assert.deepEqual(hits, expected);
  });

  test('math, hash, string and time modules evaluate on real data', async () => {
    const noise = randomBytes(64 * 1024);
    const sha256 = createHash('sha256').update(noise).digest('hex');
    const hits = await matching(
      `import "math" import "hash" import "string" import "time"
       rule high_entropy { condition: math.entropy(0, filesize) > 7.9 }
       rule low_entropy { condition: math.entropy(0, filesize) < 1.0 }
       rule known_sha256 { condition: hash.sha256(0, filesize) == "${sha256}" }
       rule other_md5 { condition: hash.md5(0, filesize) == "00000000000000000000000000000000" }
       rule string_functions { condition: string.to_int("42") == 42 and string.length("abc") == 3 }
       rule after_2020 { condition: time.now() > 1577836800 }`,
      { bytes: noise },
    );
    assert.deepEqual(hits, ['after_2020', 'high_entropy', 'known_sha256', 'string_functions']);
  });

  test('dotnet and macho rules compile and evaluate: false on a native PE, true on a Mach-O header', async () => {
    const macho = Buffer.alloc(32);
    macho.writeUInt32LE(0xfeedfacf, 0); // MH_MAGIC_64
    macho.writeUInt32LE(0x01000007, 4); // CPU_TYPE_X86_64
    macho.writeUInt32LE(3, 8); // CPU_SUBTYPE_X86_64_ALL
    macho.writeUInt32LE(2, 12); // MH_EXECUTE
    const rules = `import "dotnet" import "macho"
       rule dotnet_assembly { condition: dotnet.is_dotnet == 1 }
       rule macho_x64 { condition: macho.filetype == macho.MH_EXECUTE and macho.cputype == macho.CPU_TYPE_X86_64 }`;
    assert.deepEqual(await matching(rules, { bytes: writePe({ format: 'pe32+' }) }), []);
    assert.deepEqual(await matching(rules, { bytes: macho }), ['macho_x64']);
  });
});
