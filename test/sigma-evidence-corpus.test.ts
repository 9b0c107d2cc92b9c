/**
 * Issue 17, acceptance 3: for 20 pinned (attack sample, SigmaHQ rule) pairs of the corpus,
 * `tae sigma --json` shows the field values that prove the detection in the match's
 * `details` (Hayabusa's Details column): the encoded command line, the dumped hive, the
 * service's pipe command, the localhost RDP logon… Skips cleanly without the corpus.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { EVTX_DIR } from './helpers/corpus.js';
import { SIGMA_DIR, SKIP_NO_SIGMA } from './helpers/sigma-corpus.js';

const SAMPLES = join(EVTX_DIR, 'hayabusa-sample-evtx', 'EVTX-ATTACK-SAMPLES');
const RULES = join(SIGMA_DIR, 'rules', 'windows');
const skip = SKIP_NO_SIGMA || (existsSync(SAMPLES) ? false : `attack samples not found at ${SAMPLES}`);

interface Pair {
  readonly sample: string;
  readonly rule: string;
  readonly id: string;
  /** Each must appear in the details of one match of the rule on the sample. */
  readonly proof: readonly string[];
}

const PAIRS: readonly Pair[] = [
  {
    sample: 'Credential Access/discovery_sysmon_1_iis_pwd_and_config_discovery_appcmd.evtx',
    rule: 'process_creation/proc_creation_win_powershell_base64_encoded_cmd.yml',
    id: 'ca2092a1-c273-4878-9b4b-0d60115bf5ea',
    proof: [
      'CommandLine: "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe"  -nop -noni -enc JAB',
      'ParentImage: C:\\Windows\\System32\\inetsrv\\w3wp.exe',
    ],
  },
  {
    sample: 'AutomatedTestingTools/PanacheSysmon_vs_AtomicRedTeam01.evtx',
    rule: 'process_creation/proc_creation_win_susp_shadow_copies_deletion.yml',
    id: 'c947b146-0abc-4c87-9c64-b17e9d7274a2',
    proof: ['CommandLine: vssadmin.exe  delete shadows /all /quiet'],
  },
  {
    sample: 'AutomatedTestingTools/PanacheSysmon_vs_AtomicRedTeam01.evtx',
    rule: 'process_creation/proc_creation_win_reg_dumping_sensitive_hives.yml',
    id: 'fd877b94-9bb5-4191-bb25-d79cbd93c167',
    proof: ['CommandLine: reg  save HKLM\\Security security.hive'],
  },
  {
    sample: 'AutomatedTestingTools/PanacheSysmon_vs_AtomicRedTeam01.evtx',
    rule: 'registry/registry_event/registry_event_stickykey_like_backdoor.yml',
    id: 'baca5663-583c-45f9-b5dc-ea96a22ce542',
    proof: ['Image File Execution Options\\osk.exe\\Debugger', 'Details: C:\\windows\\system32\\cmd.exe'],
  },
  {
    sample: 'AutomatedTestingTools/PanacheSysmon_vs_AtomicRedTeam01.evtx',
    rule: 'process_creation/proc_creation_win_sysinternals_procdump_lsass.yml',
    id: '5afee48e-67dd-4e03-a783-f74259dcf998',
    proof: ['procdump.exe -accepteula -ma lsass.exe lsass_dump.dmp'],
  },
  {
    sample: 'AutomatedTestingTools/PanacheSysmon_vs_AtomicRedTeam01.evtx',
    rule: 'process_creation/proc_creation_win_certutil_decode.yml',
    id: 'cc9cbe82-7bc0-4ef5-bc23-bbfb83947be7',
    proof: ['CommandLine: certutil.exe  -decode file.txt c:\\file.exe'],
  },
  {
    sample: 'AutomatedTestingTools/panache_sysmon_vs_EDRTestingScript.evtx',
    rule: 'process_creation/proc_creation_win_mshta_javascript.yml',
    id: '67f113fa-e23d-4271-befa-30113b3e08b1',
    proof: ['CommandLine: mshta.exe  javascript:a=GetObject("script:https://raw.githubusercontent.com/'],
  },
  {
    sample: 'Privilege Escalation/System_7045_namedpipe_privesc.evtx',
    rule: 'builtin/system/service_control_manager/win_system_meterpreter_or_cobaltstrike_getsystem_service_installation.yml',
    id: '843544a7-56e0-4dcc-a44f-5cc266dd97d6',
    proof: [
      "ImagePath: %COMSPEC% /c ping -n 1 127.0.0.1 >nul && echo 'WinPwnage' > \\\\.\\pipe\\WinPwnagePipe",
      'ServiceName: WinPwnage',
    ],
  },
  {
    sample: 'Credential Access/Powershell_4104_MiniDumpWriteDump_Lsass.evtx',
    rule: 'powershell/powershell_script/posh_ps_susp_getprocess_lsass.yml',
    id: '84c174ab-d3ef-481f-9c86-a50d0b8e3edb',
    proof: ['ScriptBlockText: ', '$Process = Get-Process lsass'],
  },
  {
    sample: 'Command and Control/DE_RDP_Tunneling_4624.evtx',
    rule: 'builtin/security/account_management/win_security_rdp_localhost_login.yml',
    id: '51e33403-2a37-4d66-a574-1fda1782cc31',
    proof: ['LogonType: 10', 'IpAddress: 127.0.0.1', 'TargetUserName: IEUser'],
  },
  {
    sample: 'Privilege Escalation/security_4624_4673_token_manip.evtx',
    rule: 'builtin/security/account_management/win_security_overpass_the_hash.yml',
    id: '192a0330-c20b-4356-90b6-7b7049ae0b87',
    proof: ['LogonType: 9', 'LogonProcessName: seclogo'],
  },
  {
    sample: 'Credential Access/CA_protectedstorage_5145_rpc_masterkey.evtx',
    rule: 'builtin/security/win_security_protected_storage_service_access.yml',
    id: '45545954-4016-43c6-855e-eae8f1c369dc',
    proof: ['RelativeTargetName: protected_storage', 'IpAddress: 172.16.66.1'],
  },
  {
    sample: 'Privilege Escalation/4624 LT3 AnonymousLogon Localhost - JuicyPotato.evtx',
    rule: 'builtin/security/account_management/win_security_susp_rottenpotato.yml',
    id: '16f5d8ca-44bd-47c8-acbe-6fc95a16c12f',
    proof: ['TargetUserName: ANONYMOUS LOGON', 'IpAddress: 127.0.0.1'],
  },
  {
    sample: 'Privilege Escalation/sysmon_13_1_meterpreter_getsystem_NamedPipeImpersonation.evtx',
    rule: 'process_creation/proc_creation_win_susp_priv_escalation_via_named_pipe.yml',
    id: '9bd04a79-dabe-4f1f-a5ff-92430265c96b',
    proof: ['CommandLine: cmd.exe /c echo msdhch > \\\\.\\pipe\\msdhch'],
  },
  {
    sample: 'Privilege Escalation/Sysmon_13_1_UAC_Bypass_EventVwrBypass.evtx',
    rule: 'registry/registry_set/registry_set_bypass_uac_using_eventviewer.yml',
    id: '674202d0-b22a-4af4-ae5f-2eda1f3da1af',
    proof: ['_CLASSES\\mscfile\\shell\\open\\command\\(Default)'],
  },
  {
    sample: 'Privilege Escalation/sysmon_11_7_1_uacbypass_windirectory_mocking.evtx',
    rule: 'process_creation/proc_creation_win_uac_bypass_trustedpath.yml',
    id: '4ac47ed3-44c2-4b1f-9d51-bf46e8914126',
    proof: ['Image: C:\\Windows \\System32\\winSAT.exe'],
  },
  {
    // A Sysmon rule matched on Security 4688 shows 4688's own field names.
    sample: 'Privilege Escalation/NTLM2SelfRelay-med0x2e-security_4624_4688.evtx',
    rule: 'process_creation/proc_creation_win_wmiprvse_spawning_process.yml',
    id: 'd21374ff-f574-44a7-9998-4a8c8bf33d7d',
    proof: [
      'ParentProcessName: C:\\Windows\\System32\\wbem\\WmiPrvSE.exe',
      'NewProcessName: C:\\Windows\\System32\\notepad.exe',
    ],
  },
  {
    // The matched GUID sits past the first 240 characters: the value is shown around it.
    sample: 'Persistence/DACL_DCSync_Right_Powerview_ Add-DomainObjectAcl.evtx',
    rule: 'builtin/security/win_security_account_backdoor_dcsync_rights.yml',
    id: '2c99737c-585d-4431-b61a-c911d86ff32f',
    proof: ['AttributeLDAPDisplayName: nTSecurityDescriptor', '1131f6aa-9c07-11d1-f79f-00c04fc2dcd2'],
  },
  {
    sample: 'Lateral Movement/remote task update 4624 4702 same logonid.evtx',
    rule: 'builtin/security/win_security_susp_scheduled_task_update.yml',
    id: '614cf376-6651-47c4-9dcc-6b9527f749f4',
    proof: ['<Command>cmd.exe</Command>', '\\r\\n'],
  },
  {
    sample: 'Credential Access/CA_DCSync_4662.evtx',
    rule: 'builtin/security/win_security_ad_replication_non_machine_account.yml',
    id: '17d619c1-e020-4347-957e-1d1207455c93',
    proof: ['1131f6aa-9c07-11d1-f79f-00c04fc2dcd2', 'SubjectUserName: Administrator'],
  },
];

interface Match {
  rule_id: string;
  file: string;
  details: string | null;
}

let matches: Match[] = [];

before(() => {
  if (skip) return;
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tae-evidence-'));
  const samples = [...new Set(PAIRS.map((p) => join(SAMPLES, p.sample)))];
  const rules = [...new Set(PAIRS.map((p) => join(RULES, p.rule)))];
  const run = runTae(dir, [
    'sigma',
    '-q',
    '--json',
    '--no-cache',
    ...rules.flatMap((r) => ['--rule', r]),
    ...samples,
  ]);
  assert.equal(run.status, 0, run.stderr);
  matches = JSON.parse(run.stdout) as Match[];
});

test('20 pinned attack samples: the detection details hold the field values that prove it', { skip }, () => {
  assert.equal(PAIRS.length, 20);
  for (const p of PAIRS) {
    const mine = matches.filter((m) => m.rule_id === p.id && m.file.endsWith(p.sample));
    assert.ok(mine.length > 0, `${p.rule} matched nothing in ${p.sample}`);
    const proven = mine.some((m) => p.proof.every((v) => m.details?.includes(v)));
    assert.ok(
      proven,
      `${p.rule} on ${p.sample}: no match shows ${JSON.stringify(p.proof)}:\n${mine.map((m) => m.details).join('\n')}`,
    );
  }
});
