/**
 * SigmaHQ rules over the real attack samples: rules fire where the sample names say they
 * should, and never on an event whose channel their log source does not cover.
 */
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { parseEvtx } from '../src/parse/index.js';
import { compileRuleSet, type RuleSet, type RuleVariant, sigmaEventFromEvtx } from '../src/sigma/index.js';
import { EVTX_DIR } from './helpers/corpus.js';
import { activeSigmaRules, SKIP_NO_SIGMA, testPlaceholders } from './helpers/sigma-corpus.js';

const SAMPLES = join(EVTX_DIR, 'hayabusa-sample-evtx');
const ATTACK = 'EVTX-ATTACK-SAMPLES';
const MITRE = 'EVTX-to-MITRE-Attack';

/** (sample file, rule file stem): each rule is what the file's name says happened. */
const PAIRS: readonly (readonly [string, string])[] = [
  // Defence evasion
  [`${ATTACK}/Defense Evasion/DE_1102_security_log_cleared.evtx`, 'win_security_audit_log_cleared'],
  [`${ATTACK}/Defense Evasion/DE_104_system_log_cleared.evtx`, 'win_system_susp_eventlog_cleared'],
  [`${ATTACK}/Defense Evasion/DE_UAC_Disabled_Sysmon_12_13.evtx`, 'registry_set_uac_disable'],
  [`${ATTACK}/Defense Evasion/sysmon_13_rdp_settings_tampering.evtx`, 'registry_set_change_rdp_port'],
  [`${ATTACK}/AutomatedTestingTools/WinDefender_Events_1117_1116_AtomicRedTeam.evtx`, 'win_defender_threat'],
  // Credential access
  [
    `${ATTACK}/Credential Access/4794_DSRM_password_change_t1098.evtx`,
    'win_security_susp_dsrm_password_change',
  ],
  [
    `${ATTACK}/Credential Access/CA_Mimikatz_Memssp_Default_Logs_Sysmon_11.evtx`,
    'file_event_win_hktl_mimikatz_files',
  ],
  [
    `${ATTACK}/Credential Access/CA_hashdump_4663_4656_lsass_access.evtx`,
    'win_security_susp_lsass_dump_generic',
  ],
  [
    `${ATTACK}/Credential Access/Powershell_4104_MiniDumpWriteDump_Lsass.evtx`,
    'posh_ps_susp_getprocess_lsass',
  ],
  [`${ATTACK}/Credential Access/dc_applog_ntdsutil_dfir_325_326_327.evtx`, 'win_esent_ntdsutil_abuse'],
  [`${ATTACK}/Credential Access/sysmon_10_11_lsass_memdump.evtx`, 'proc_access_win_lsass_memdump'],
  [
    `${ATTACK}/Credential Access/sysmon_10_lsass_mimikatz_sekurlsa_logonpasswords.evtx`,
    'proc_access_win_lsass_uncommon_access_flag',
  ],
  [`${ATTACK}/Credential Access/sysmon_rdrleakdiag_lsass_dump.evtx`, 'proc_creation_win_lsass_process_clone'],
  // Lateral movement
  [
    `${ATTACK}/Lateral Movement/LM_4624_mimikatz_sekurlsa_pth_source_machine.evtx`,
    'win_security_overpass_the_hash',
  ],
  [
    `${ATTACK}/Lateral Movement/LM_DCOM_MSHTA_LethalHTA_Sysmon_3_1.evtx`,
    'proc_creation_win_mshta_lethalhta_technique',
  ],
  [
    `${ATTACK}/Lateral Movement/LM_PowershellRemoting_sysmon_1_wsmprovhost.evtx`,
    'proc_creation_win_winrm_remote_powershell_session_process',
  ],
  [
    `${ATTACK}/Lateral Movement/LM_impacket_docmexec_mmc_sysmon_01.evtx`,
    'proc_creation_win_hktl_impacket_lateral_movement',
  ],
  [`${ATTACK}/Lateral Movement/LM_renamed_psexecsvc_5145.evtx`, 'win_security_susp_psexec'],
  [
    `${ATTACK}/Lateral Movement/LM_winrm_exec_sysmon_1_winrshost.evtx`,
    'proc_creation_win_winrshost_command_execution',
  ],
  [
    `${ATTACK}/Lateral Movement/LM_wmiexec_impacket_sysmon_whoami.evtx`,
    'proc_creation_win_wmiprvse_spawning_process',
  ],
  [
    `${ATTACK}/Lateral Movement/remote task update 4624 4702 same logonid.evtx`,
    'win_security_susp_scheduled_task_update',
  ],
  // Persistence
  [
    `${ATTACK}/Persistence/Network_Service_Guest_added_to_admins_4732.evtx`,
    'win_security_user_added_to_local_administrators',
  ],
  [
    `${ATTACK}/Persistence/evasion_persis_hidden_run_keyvalue_sysmon_13.evtx`,
    'registry_set_asep_reg_keys_modification_currentversion',
  ],
  [
    `${ATTACK}/Persistence/persistence_hidden_local_account_sysmon.evtx`,
    'registry_event_add_local_hidden_user',
  ],
  [`${ATTACK}/Persistence/persistence_security_dcshadow_4742.evtx`, 'win_security_possible_dc_shadow'],
  [`${ATTACK}/Persistence/wmighost_sysmon_20_21_1.evtx`, 'sysmon_wmi_event_subscription'],
  [`${ATTACK}/Execution/temp_scheduled_task_4698_4699.evtx`, 'win_security_scheduled_task_deletion'],
  // Execution (Sysmon 1)
  [`${ATTACK}/Execution/exec_msxsl_xsl_sysmon_1_7.evtx`, 'proc_creation_win_msxsl_execution'],
  [`${ATTACK}/Execution/exec_sysmon_1_lolbin_pcalua.evtx`, 'proc_creation_win_lolbin_pcalua'],
  [`${ATTACK}/Execution/exec_sysmon_lobin_regsvr32_sct.evtx`, 'proc_creation_win_regsvr32_network_pattern'],
  [`${ATTACK}/Execution/sysmon_lolbin_bohops_vshadow_exec.evtx`, 'proc_creation_win_vshadow_exec'],
  [`${ATTACK}/Execution/rogue_msi_url_1040_1042.evtx`, 'win_msi_install_from_web'],
  // Security 4688: the process_creation rules through their translated variant
  [
    `${MITRE}/TA0002-Execution/T1053.005-Scheduled Task/ID4688-Scheduled task creation.evtx`,
    'proc_creation_win_schtasks_creation',
  ],
  [
    `${MITRE}/TA0002-Execution/T1053.005-Scheduled Task/ID4688-Interactive shell using AT schedule task.evtx`,
    'proc_creation_win_at_interactive_execution',
  ],
  [
    `${MITRE}/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx`,
    'proc_creation_win_powershell_frombase64string',
  ],
  [
    `${MITRE}/EVTX_full_APT_attack_steps/ID4688,5140,5145-WMIexec execution via SMB (GLOBAL).evtx`,
    'proc_creation_win_hktl_impacket_lateral_movement',
  ],
  [
    `${MITRE}/EVTX_full_APT_attack_steps/ID11,13,17,18-PSexec as system execution.evtx`,
    'proc_creation_win_sysinternals_psexec_execution',
  ],
];

const stem = (source: string) => /([^/\\]+)\.ya?ml$/i.exec(source)?.[1] ?? source;

function samples(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.evtx')) out.push(p);
    }
  };
  walk(SAMPLES);
  return out;
}

/** Checked against the variant's declared channels, independently of the index that chose it. */
function covers(v: RuleVariant, channel: string, provider: string): boolean {
  const channels = v.selector.channels;
  if (channels === 'any') return true;
  const c = channel.toLowerCase();
  const inChannel = channels.some((ch) =>
    ch.prefix ? c.startsWith(ch.name.toLowerCase()) : c === ch.name.toLowerCase(),
  );
  const forwarded = c === 'forwardedevents' && v.selector.providers.some((p) => p.name === provider);
  return inChannel || forwarded;
}

describe('SigmaHQ rules over the attack samples', { skip: SKIP_NO_SIGMA }, () => {
  let ruleSet: RuleSet;
  const fired = new Map<string, Set<string>>();
  const outside: string[] = [];

  before(async () => {
    ruleSet = compileRuleSet({ rules: activeSigmaRules(), options: { placeholders: testPlaceholders() } });
    for (const path of samples()) {
      const rel = path.slice(SAMPLES.length + 1);
      const stems = new Set<string>();
      for await (const record of parseEvtx(path, { outputs: ['event'] })) {
        const e = record.event!;
        for (const m of ruleSet.match(sigmaEventFromEvtx(e))) {
          stems.add(stem(m.rule.source));
          if (!covers(m.variant, e.channel, e.provider))
            outside.push(`${rel}#${e.recordId}: ${m.rule.title}/${m.variant.name} on ${e.channel}`);
        }
      }
      fired.set(rel, stems);
    }
  });

  test(`the ${PAIRS.length} pinned (sample, rule) pairs fire`, () => {
    assert.ok(PAIRS.length >= 30);
    const missing = PAIRS.filter(([file, rule]) => !fired.get(file)?.has(rule)).map((p) => p.join(' → '));
    assert.deepEqual(missing, []);
  });

  test('no rule fires on an event whose channel its log source does not cover', () => {
    assert.ok(fired.size > 500, `${fired.size} samples decoded`);
    assert.deepEqual(outside.slice(0, 10), []);
  });

  test('a benign sample stays quiet for the lateral-movement and credential rules pinned above', () => {
    const pinned = new Set(PAIRS.map(([, rule]) => rule));
    const quiet = `${ATTACK}/Discovery/discovery_UEFI_Settings_rweverything_sysmon_6.evtx`;
    const noise = [...(fired.get(quiet) ?? [])].filter((r) => pinned.has(r));
    assert.deepEqual(noise, []);
  });
});
