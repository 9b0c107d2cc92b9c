/**
 * Issue 19, acceptance 2: on the corpus's attack samples, (sample, rule) pairs where a YARA rule
 * of the corpus's rule sets or of the builtin pack matches a decoded payload (depth ≥ 1: an
 * encoded command, a FromBase64String stage, a gzip stream…) and does not match the sample
 * file itself, so the match exists only in decoded content. Found by scanning every payload of
 * the hayabusa samples with all three rule sets and the builtin pack (yara-rules' generic
 * utils/ rules such as contains_base64 left out); pinned here with only the rule files involved.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseEvtx } from '../src/parse/index.js';
import { createPayloadExtractor, type Payload } from '../src/payloads/index.js';
import { openRuleLibrary } from '../src/rules/index.js';
import { PACK_EXTERNAL_VARIABLES, type PayloadScan, scanPayloads, YaraEngine } from '../src/yara/index.js';
import { CORPUS } from './helpers/corpus.js';

const SAMPLES = join(CORPUS, 'evtx', 'hayabusa-sample-evtx');
const YARA = join(CORPUS, 'yara');
const SKIP =
  existsSync(SAMPLES) && existsSync(YARA) ? false : `corpus samples or YARA sets not found under ${CORPUS}`;

/** [sample under hayabusa-sample-evtx, rule file as `set:path`, rule]. */
const PINNED: readonly (readonly [string, string, string])[] = [
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'signature-base:yara/gen_ps1_shellcode.yar',
    'Base64_PS1_Shellcode',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-security.evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'signature-base:yara/gen_ps1_shellcode.yar',
    'Base64_PS1_Shellcode',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'DeepBlueCLI/metasploit-psexec-powershell-target-system.evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'DeepBlueCLI/powersploit-security.evtx',
    'builtin:yara/script_powershell_download_cradle.yar',
    'tae_script_powershell_download_cradle',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'signature-base:yara/gen_ps1_shellcode.yar',
    'Base64_PS1_Shellcode',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'EVTX-ATTACK-SAMPLES/Lateral Movement/LM_sysmon_psexec_smb_meterpreter.evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID4624,4688,5140,5145-Eternal Romance - MS17_010_psexec (GLOBAL).evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID4624,4688,5140,5145-Eternal Romance - MS17_010_psexec (GLOBAL).evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID4624,4688,5140,5145-Eternal Romance - MS17_010_psexec (GLOBAL).evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID4624,4688,5140,5145-Eternal Romance - MS17_010_psexec (GLOBAL).evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID4624,4688,5140,5145-Eternal Romance - MS17_010_psexec (GLOBAL).evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID5140-5145,4688,4697-Encrypted payload deployed with service over SMB (GLOBAL).evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID5140-5145,4688,4697-Encrypted payload deployed with service over SMB (GLOBAL).evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID5140-5145,4688,4697-Encrypted payload deployed with service over SMB (GLOBAL).evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID5140-5145,4688,4697-Encrypted payload deployed with service over SMB (GLOBAL).evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'EVTX-to-MITRE-Attack/EVTX_full_APT_attack_steps/ID5140-5145,4688,4697-Encrypted payload deployed with service over SMB (GLOBAL).evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0002-Execution/T1059.001-PowerShell/ID4688-Encoded PowerShell MSF payload via process execution.evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID4697-MSF payload deployed via service.evtx',
    'signature-base:yara/gen_empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID4697-MSF payload deployed via service.evtx',
    'signature-base:yara/gen_gcti_cobaltstrike.yar',
    'CobaltStrike_Resources_Reverse_Bin_v2_5_through_v4_x',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID4697-MSF payload deployed via service.evtx',
    'signature-base:yara/gen_metasploit_payloads.yar',
    'Msfpayloads_msf_ref',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID4697-MSF payload deployed via service.evtx',
    'yara-rules:malware/APT_Cobalt.yar',
    'Cobalt_functions',
  ],
  [
    'EVTX-to-MITRE-Attack/TA0003-Persistence/T1543.003-Create or Modify System Process-Windows Service/ID4697-MSF payload deployed via service.evtx',
    'yara-rules:malware/MALW_Empire.yar',
    'Empire_PowerShell_Framework_Gen4',
  ],
];

const engine = new YaraEngine({ threads: 2, scanTimeoutMs: 30_000 });
after(() => engine.close());

async function ruleSources(): Promise<{ source: string; namespace: string; origin: string }[]> {
  const files = [...new Set(PINNED.map((p) => p[1]))];
  const library = await openRuleLibrary({ dataDir: false });
  try {
    const builtin = library.yaraSources({ packs: ['builtin'] }).sources;
    return files.map((ns) => {
      const [set, path] = [ns.slice(0, ns.indexOf(':')), ns.slice(ns.indexOf(':') + 1)];
      const source =
        set === 'builtin'
          ? builtin.find((s) => s.path === path)!.text
          : readFileSync(join(YARA, set, path), 'utf8');
      return { source, namespace: ns, origin: ns };
    });
  } finally {
    library.close();
  }
}

async function payloadsOf(file: string): Promise<Payload[]> {
  const x = createPayloadExtractor();
  const out: Payload[] = [];
  for await (const r of parseEvtx(file)) if (r.event) out.push(...x.add(r.event, file));
  return [...out, ...x.finish()];
}

describe('payload YARA on the corpus attack samples', { skip: SKIP }, () => {
  test('corpus and builtin YARA rules match decoded payloads of attack samples where the sample itself does not match', async (t) => {
    const compiled = await engine.compile({
      sources: await ruleSources(),
      variables: PACK_EXTERNAL_VARIABLES,
    });
    assert.equal(compiled.kind, 'compiled');
    if (compiled.kind !== 'compiled') return;
    const found: string[] = [];
    for (const sample of [...new Set(PINNED.map((p) => p[0]))]) {
      const path = join(SAMPLES, sample);
      const decoded = (await payloadsOf(path)).filter((p) => p.provenance.depth >= 1);
      const scan: PayloadScan<Payload> = await scanPayloads(decoded, { compiled: compiled.rules, engine });
      assert.equal(scan.kind, 'scanned');
      const raw = await engine.scan({ rules: compiled.rules, target: { path } });
      assert.equal(raw.kind, 'matched');
      const inRaw = new Set(
        raw.kind === 'matched' ? raw.matches.map((m) => `${m.namespace}\t${m.rule}`) : [],
      );
      const pairs = new Set<string>();
      for (const r of scan.kind === 'scanned' ? scan.results : []) {
        assert.equal(r.outcome.kind, 'matched');
        for (const m of r.outcome.kind === 'matched' ? r.outcome.matches : [])
          if (!inRaw.has(`${m.namespace}\t${m.rule}`)) pairs.add(`${sample}\t${m.namespace}\t${m.rule}`);
      }
      found.push(...pairs);
    }
    assert.deepEqual(found.sort(), PINNED.map((p) => p.join('\t')).sort());
    assert.ok(found.length >= 10);
    t.diagnostic(`${found.length} (sample, rule) pairs match only decoded content`);
  });
});
