/**
 * Real attack samples (hayabusa-sample-evtx): for each file, the result types that should show
 * the attack the file is named for do show it, with the records' own values. Over 400 lines
 * because it is one table of 31 cases across four tactics.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type AnalysisResults, createAnalyzer, flattenResults } from '../src/analysis/index.js';
import {
  type GraphInsight,
  insightProblems,
  type TableInsight,
  type TimelineEntry,
} from '../src/insights/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { EVTX_DIR, SKIP_NO_CORPUS } from './helpers/corpus.js';

const SAMPLES = join(EVTX_DIR, 'hayabusa-sample-evtx');

async function analyze(rel: string): Promise<AnalysisResults> {
  const analyzer = createAnalyzer();
  const parse = parseEvtx(join(SAMPLES, rel));
  for await (const r of parse) analyzer.add(r.event!, { file: rel });
  analyzer.addDiagnostics(parse.diagnostics, { file: rel });
  const results = analyzer.finish();
  for (const i of flattenResults(results)) assert.deepEqual(insightProblems(i), []);
  return results;
}

const entries = (r: AnalysisResults, shortName: string): TimelineEntry[] =>
  (r['Key Event Timeline'][0] as { Timeline: { data: TimelineEntry[] } }).Timeline.data.filter(
    (e) => e.short_name === shortName,
  );

/** The one timeline entry of a kind, checked for importance and category. */
function entry(r: AnalysisResults, shortName: string, importance: string, category: string): TimelineEntry {
  const found = entries(r, shortName);
  assert.ok(found.length > 0, `no "${shortName}" in the timeline`);
  const e = found[0]!;
  assert.equal(e.importance, importance, shortName);
  assert.equal(e.category, category, shortName);
  return e;
}

/** Rows (without the header) of the table with this title, as objects keyed by column. */
function rows(r: AnalysisResults, title: string): Record<string, string>[] {
  const t = flattenResults(r).find((i): i is TableInsight => 'Table' in i && i.Table.title === title);
  assert.ok(t, `no table ${title}`);
  const [header, ...body] = t.Table.data;
  return body.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]!])));
}

const dot = (r: AnalysisResults): string => (r['Process Inference Graph'][0] as GraphInsight).Graph.data;

interface Case {
  readonly file: string;
  readonly shows: string;
  readonly check: (r: AnalysisResults) => void;
}

const CREDENTIAL_ACCESS: Case[] = [
  {
    file: 'DeepBlueCLI/smb-password-guessing-security.evtx',
    shows: 'a burst of 3561 failed SMB logons from one source',
    check: (r) => {
      const e = entry(r, 'Failed logon burst', 'High', 'Authentication');
      assert.match(
        e.description,
        /^3561 failed logons from 192\.168\.198\.149 against 3 accounts \(\.\\Administrator \(3559\)/,
      );
      const admin = rows(r, 'Authentication').find((x) => x.User === '.\\Administrator');
      assert.equal(admin?.Failures, '3559');
    },
  },
  {
    file: 'DeepBlueCLI/password-spray.evtx',
    shows: 'explicit credentials of 41 accounts used from one session',
    check: (r) => {
      const e = entry(r, 'Explicit-credential spraying', 'High', 'Authentication');
      assert.match(e.description, /^DESKTOP-JR78RLP\\jwrig used the credentials of 41 accounts/);
    },
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0006-Credential Access/T1110.xxx-Brut force/ID4768-4771-Kerberos user enumeration (Kerbrute).evtx',
    shows: 'Kerberos failures against 37 accounts from one address',
    check: (r) =>
      assert.match(
        entry(r, 'Password spraying', 'High', 'Authentication').description,
        /^37 failed logons from 10\.23\.123\.11 against 37 accounts/,
      ),
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0006-Credential Access/T1110.xxx-Brut force/ID4771-Kerberos brutforce with valid user.evtx',
    shows: '54 Kerberos pre-authentication failures for one account',
    check: (r) => {
      assert.match(
        entry(r, 'Failed logon burst', 'High', 'Authentication').description,
        /^54 failed logons from 10\.23\.123\.11 against 1 account \(admin-hacker \(54\)\); 0x18 bad password \(54\)/,
      );
      const row = rows(r, 'Authentication').find((x) => x['Logon Type'] === 'Kerberos pre-authentication');
      assert.equal(row?.Failures, '54');
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Credential Access/CA_DCSync_4662.evtx',
    shows: 'directory replication requested by a user account',
    check: (r) =>
      assert.match(entry(r, 'DCSync', 'High', 'Authentication').description, /insecurebank\\Administrator/),
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Credential Access/sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx',
    shows: 'mimikatz reading LSASS memory',
    check: (r) =>
      assert.match(
        entry(r, 'LSASS memory access', 'High', 'Process').description,
        /mimikatz\.exe opened lsass\.exe with access 0x1010/,
      ),
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Credential Access/sysmon_10_1_memdump_comsvcs_minidump.evtx',
    shows: 'comsvcs.dll MiniDump run through rundll32 from WMI',
    check: (r) => {
      assert.match(entry(r, 'LSASS dump', 'High', 'Process').description, /comsvcs\.dll, MiniDump 4868/);
      const x = rows(r, 'Process Analysis: Notable Executions').find((row) =>
        row.Flags?.includes('LSASS dump'),
      );
      assert.equal(x?.Parent, 'C:\\Windows\\System32\\wbem\\WmiPrvSE.exe');
    },
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0006-Credential Access/T1558-Steal or Forge Kerberos Tickets/ID4769-Kerberoast ticket with low encryption.evtx',
    shows: 'an RC4 service ticket requested for a user service account',
    check: (r) =>
      assert.match(
        entry(r, 'Kerberoasting', 'Medium', 'Authentication').description,
        /^RC4 service ticket for Svc-SQL-DB01 requested by admmig@OFFSEC\.LAN from 10\.23\.23\.9/,
      ),
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0006-Credential Access/T1558-Steal or Forge Kerberos Tickets/ID4768-Kerberos AS-REP Roasting.evtx',
    shows: 'a TGT issued without pre-authentication',
    check: (r) =>
      assert.match(
        entry(r, 'AS-REP roasting', 'High', 'Authentication').description,
        /offsec\.lan\\admin-test to 10\.23\.23\.9/,
      ),
  },
];

const LATERAL_MOVEMENT: Case[] = [
  {
    file: 'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_Remote_Service02_7045.evtx',
    shows: 'remotely installed services running cmd.exe',
    check: (r) => {
      assert.deepEqual(
        rows(r, 'Persistence').map((x) => `${x.Mechanism}|${x.Name}|${x.Detail}`),
        [
          'Service|spoolfool|cmd.exe (auto start; LocalSystem)',
          'Service|spoolsv|cmd.exe (auto start; LocalSystem)',
          'Service|remotesvc|calc.exe (auto start; LocalSystem)',
        ],
      );
      assert.equal(entries(r, 'Service installed').filter((e) => e.importance === 'High').length, 2);
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_5145_Remote_FileCopy.evtx',
    shows: '869 accesses to C$ from one address',
    check: (r) => {
      const src = rows(r, 'Network Analysis: Remote Access Sources');
      assert.deepEqual(
        src.map((x) => [x['Source Address'], x.Service, x.Successes, x.Shares]),
        [['10.0.2.15', 'SMB share', '869', '\\\\*\\C$ (869)']],
      );
      assert.match(
        entry(r, 'Administrative share access', 'Medium', 'Network').description,
        /^\\\\\*\\C\$ accessed by EXAMPLE\\Administrator from 10\.0\.2\.15/,
      );
    },
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0001-Initial access/T1078-Valid accounts/ID1149-RDP success logins to multiple hosts.evtx',
    shows: 'one account logging on over RDP to 11 hosts from one address',
    check: (r) => {
      assert.equal(entries(r, 'RDP logon').length, 11);
      const src = rows(r, 'Network Analysis: Remote Access Sources');
      assert.equal(src.length, 11);
      assert.ok(src.every((x) => x['Source Address'] === '10.23.123.11' && x.Service === 'RDP'));
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_wmiexec_impacket_sysmon_whoami.evtx',
    shows: 'WmiPrvSE starting cmd.exe that runs whoami with output to ADMIN$',
    check: (r) => {
      assert.match(dot(r), /"WmiPrvSE\.exe:836@inferred" -> "cmd\.exe:2828@r9828"/);
      assert.match(dot(r), /"cmd\.exe:2828@r9828" -> "whoami\.exe:3328@r9829"/);
      assert.match(
        entry(r, 'Remote execution output (Impacket)', 'High', 'Process').description,
        /\\\\127\.0\.0\.1\\ADMIN\$\\__1556656369/,
      );
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_WMI_4624_4688_TargetHost.evtx',
    shows: 'a network logon and WmiPrvSE starting calc.exe (4688, hex ids)',
    check: (r) => {
      assert.match(dot(r), /"WmiPrvSE\.exe:2792@r563298" -> "calc\.exe:1060@r563299"/);
      const src = rows(r, 'Network Analysis: Remote Access Sources').find(
        (x) => x['Source Address'] === '10.0.2.17',
      );
      assert.equal(src?.Service, 'Network logon');
      assert.equal(src?.Successes, '4');
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_ScheduledTask_ATSVC_target_host.evtx',
    shows: 'a remote task created and deleted after ADMIN$ access',
    check: (r) => {
      assert.match(
        entry(r, 'Scheduled task created', 'Medium', 'Persistence').description,
        /\\CYAlyNSS → cmd\.exe \/C tasklist/,
      );
      entry(r, 'Scheduled task deleted', 'Low', 'Persistence');
      entry(r, 'Administrative share access', 'Medium', 'Network');
    },
  },
];

const PERSISTENCE: Case[] = [
  {
    file: 'EVTX-ATTACK-SAMPLES/Persistence/sysmon_20_21_1_CommandLineEventConsumer.evtx',
    shows: 'a WMI filter, command-line consumer and binding',
    check: (r) => {
      const wmi = rows(r, 'Persistence').filter(
        (x) => x.Mechanism === 'WMI Subscription' && x.Action === 'created',
      );
      assert.deepEqual(
        wmi.map((x) => x.Name),
        ['BotConsumer23', 'CommandLineEventConsumer.Name="BotConsumer23"', 'BotFilter82'],
      );
      assert.equal(entries(r, 'WMI event subscription').length, 3);
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Persistence/evasion_persis_hidden_run_keyvalue_sysmon_13.evtx',
    shows: 'a Run value with an empty name',
    check: (r) => {
      const [row] = rows(r, 'Persistence');
      assert.equal(row?.Mechanism, 'Registry Run Key');
      assert.equal(row?.Detail, '"c:\\windows\\tasks\\taskhost.exe"');
    },
  },
  {
    file: 'DeepBlueCLI/new-user-security.evtx',
    shows: 'a new account added to Administrators',
    check: (r) => {
      assert.match(entry(r, 'Account created', 'Medium', 'Persistence').description, /IE8Win7\\IEUser/);
      assert.match(
        entry(r, 'Added to privileged group', 'High', 'Persistence').description,
        /Builtin\\Administrators/,
      );
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Persistence/persist_firefox_comhijack_sysmon_11_13_7_1.evtx',
    shows: 'a per-user COM server registration pointing at ProgramData',
    check: (r) => {
      const com = rows(r, 'Persistence').find((x) => x.Mechanism === 'COM Hijack');
      assert.equal(com?.Detail, 'C:\\ProgramData\\demo.dll');
    },
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID7045-New service for Mimikatz +npcap.evtx',
    shows: 'the mimikatz driver installed as a service',
    check: (r) => {
      const high = entries(r, 'Service installed').filter((e) => e.importance === 'High');
      assert.equal(high.length, 1);
      assert.match(
        high[0]!.description,
        /mimikatz driver \(mimidrv\) → C:\\TOOLS\\Security_tool\\Mimikatz-fev-2020\\mimidrv\.sys/,
      );
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Persistence/sysmon_13_1_persistence_via_winlogon_shell.evtx',
    shows: 'a Winlogon Shell value pointing at a random executable',
    check: (r) =>
      assert.match(
        rows(r, 'Persistence').find((x) => x.Mechanism === 'Winlogon')?.Detail ?? '',
        /BRE6BgE2JubB\.exe",explorer\.exe$/,
      ),
  },
];

const DEFENCE_EVASION: Case[] = [
  {
    file: 'EVTX-ATTACK-SAMPLES/Defense Evasion/DE_1102_security_log_cleared.evtx',
    shows: 'the Security log cleared',
    check: (r) =>
      assert.equal(
        entry(r, 'Log cleared', 'High', 'General').description,
        'Security log cleared by EXAMPLE\\user01 — PC01.example.corp',
      ),
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Defense Evasion/DE_104_system_log_cleared.evtx',
    shows: 'the System log cleared',
    check: (r) =>
      assert.equal(
        entry(r, 'Log cleared', 'High', 'General').description,
        'System log cleared by EXAMPLE\\user01 — PC01.example.corp',
      ),
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0005-Defense Evasion/T1562.002-Disable Windows Event Logging/ID4719-Audit policy deactivation.evtx',
    shows: 'auditing switched off, 30 changes',
    check: (r) => {
      const e = entry(r, 'Audit policy changed', 'High', 'General');
      assert.match(e.description, /Success removed by OFFSEC\\admmig — FS03\.offsec\.lan, 30 events$/);
    },
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Defense Evasion/DE_UAC_Disabled_Sysmon_12_13.evtx',
    shows: 'EnableLUA set to 0',
    check: (r) =>
      assert.match(
        entry(r, 'UAC disabled', 'High', 'General').description,
        /EnableLUA DWORD \(0x00000000\) by C:\\Windows\\system32\\reg\.exe/,
      ),
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/Defense Evasion/de_PsScriptBlockLogging_disabled_sysmon12_13.evtx',
    shows: 'script block logging turned off',
    check: (r) => entry(r, 'PowerShell logging disabled', 'High', 'General'),
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0005-Defense Evasion/T1562.001-Impair Defenses-Disable or Modify tool/ID5007-Defender threat exclusion (native).evtx',
    shows: 'a Defender path exclusion for mimikatz.exe',
    check: (r) =>
      assert.match(
        entry(r, 'Defender exclusion changed', 'High', 'General').description,
        /Exclusions\\Paths\\C:\\TOOLS\\mimikatz\.exe/,
      ),
  },
  {
    file: 'YamatoSecurity/ImpairDefenses/T1562.010_DowngradeAttack_PowerShell.evtx',
    shows: 'PowerShell engine 2.0 started',
    check: (r) =>
      assert.match(
        entry(r, 'PowerShell downgrade', 'High', 'Process').description,
        /^PowerShell engine 2\.0 started/,
      ),
  },
  {
    file: 'EVTX-ATTACK-SAMPLES/AutomatedTestingTools/WinDefender_Events_1117_1116_AtomicRedTeam.evtx',
    shows: 'five Defender detections and the actions taken',
    check: (r) => {
      assert.equal(entries(r, 'Defender detection').length, 5);
      assert.equal(entries(r, 'Defender action taken').length, 5);
      assert.ok(
        entries(r, 'Defender detection').some((e) =>
          e.description.startsWith('Trojan:PowerShell/Powersploit.M (Severe)'),
        ),
      );
    },
  },
  {
    file: 'DeepBlueCLI/disablestop-eventlog.evtx',
    shows: 'the event log service disabled after the System log was cleared',
    check: (r) => {
      entry(r, 'Log cleared', 'High', 'General');
      assert.match(
        entry(r, 'Event log service disabled', 'High', 'General').description,
        /from auto start to disabled/,
      );
    },
  },
  {
    file: 'EVTX-to-MITRE-Attack/TA0005-Defense Evasion/T1070.001-Clear Windows event logs/ID4688-Clear event log attempt (native).evtx',
    shows: 'wevtutil clearing 14 logs',
    check: (r) => {
      assert.match(entry(r, 'Event log cleared', 'High', 'Process').description, /14 events$/);
      const wevtutil = rows(r, 'Process Analysis').find(
        (x) => x.Image === 'C:\\Windows\\System32\\wevtutil.exe',
      );
      assert.equal(wevtutil?.Executions, '14');
      assert.match(wevtutil?.Flags ?? '', /LOLBin, Event log cleared/);
    },
  },
];

const TACTICS: [string, Case[]][] = [
  ['credential access', CREDENTIAL_ACCESS],
  ['lateral movement', LATERAL_MOVEMENT],
  ['persistence', PERSISTENCE],
  ['defence evasion', DEFENCE_EVASION],
];

for (const [tactic, cases] of TACTICS) {
  describe(`analysis of ${tactic} samples`, { skip: SKIP_NO_CORPUS }, () => {
    for (const c of cases) {
      test(`${c.file.split('/').pop()} shows ${c.shows}`, async () => c.check(await analyze(c.file)));
    }
  });
}
