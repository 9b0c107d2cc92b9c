/**
 * Windows logsource mapping (sigma-semantics.md §3.4): the table and the reasons for unmapped
 * rules. The Security 4688 translation is in sigma-logsource-4688.test.ts; antivirus, forwarded
 * events, filters and the YAML round trip in sigma-logsource-filters.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CATEGORIES, mapRule, SERVICES } from '../src/sigma/index.js';
import { DEFENDER, ev, PS, R, rule, SYSMON, variants } from './helpers/logsource.js';

/** §3.4 "Categories", transcribed: variant → channels and event ids. */
const CATEGORY_ROWS: Record<string, [string, string[], number[]][]> = {
  process_creation: [
    ['sysmon', [SYSMON], [1]],
    ['security', ['Security'], [4688]],
  ],
  file_change: [['sysmon', [SYSMON], [2]]],
  network_connection: [['sysmon', [SYSMON], [3]]],
  sysmon_status: [['sysmon', [SYSMON], [4, 16]]],
  process_termination: [['sysmon', [SYSMON], [5]]],
  driver_load: [['sysmon', [SYSMON], [6]]],
  image_load: [['sysmon', [SYSMON], [7]]],
  create_remote_thread: [['sysmon', [SYSMON], [8]]],
  raw_access_thread: [['sysmon', [SYSMON], [9]]],
  process_access: [['sysmon', [SYSMON], [10]]],
  file_event: [['sysmon', [SYSMON], [11]]],
  registry_event: [['sysmon', [SYSMON], [12, 13, 14]]],
  registry_add: [['sysmon', [SYSMON], [12]]],
  registry_delete: [['sysmon', [SYSMON], [12]]],
  registry_set: [['sysmon', [SYSMON], [13]]],
  registry_rename: [['sysmon', [SYSMON], [14]]],
  create_stream_hash: [['sysmon', [SYSMON], [15]]],
  pipe_created: [['sysmon', [SYSMON], [17, 18]]],
  wmi_event: [['sysmon', [SYSMON], [19, 20, 21]]],
  dns_query: [['sysmon', [SYSMON], [22]]],
  file_delete: [['sysmon', [SYSMON], [23]]],
  clipboard_capture: [['sysmon', [SYSMON], [24]]],
  process_tampering: [['sysmon', [SYSMON], [25]]],
  file_delete_detected: [['sysmon', [SYSMON], [26]]],
  file_block_executable: [['sysmon', [SYSMON], [27]]],
  file_block_shredding: [['sysmon', [SYSMON], [28]]],
  file_executable_detected: [['sysmon', [SYSMON], [29]]],
  sysmon_error: [['sysmon', [SYSMON], [255]]],
  ps_module: [['powershell', PS, [4103]]],
  ps_script: [['powershell', PS, [4104]]],
  ps_classic_start: [['powershell-classic', ['Windows PowerShell'], [400]]],
  ps_classic_provider_start: [['powershell-classic', ['Windows PowerShell'], [600]]],
  ps_classic_script: [['powershell-classic', ['Windows PowerShell'], [800]]],
  antivirus: [
    ['windefend', [DEFENDER], [1006, 1007, 1008, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1115, 1116]],
  ],
};

/** §3.4 "Services", transcribed (prefix channels marked with a trailing `*`). */
const SERVICE_CHANNELS: Record<string, string[]> = {
  security: ['Security'],
  system: ['System'],
  application: ['Application'],
  sysmon: [SYSMON],
  powershell: PS,
  'powershell-classic': ['Windows PowerShell'],
  taskscheduler: ['Microsoft-Windows-TaskScheduler/Operational'],
  wmi: ['Microsoft-Windows-WMI-Activity/Operational'],
  windefend: [DEFENDER],
  'codeintegrity-operational': ['Microsoft-Windows-CodeIntegrity/Operational'],
  'firewall-as': ['Microsoft-Windows-Windows Firewall With Advanced Security/Firewall'],
  applocker: [
    'Microsoft-Windows-AppLocker/MSI and Script',
    'Microsoft-Windows-AppLocker/EXE and DLL',
    'Microsoft-Windows-AppLocker/Packaged app-Deployment',
    'Microsoft-Windows-AppLocker/Packaged app-Execution',
  ],
  'bits-client': ['Microsoft-Windows-Bits-Client/Operational'],
  'dns-client': ['Microsoft-Windows-DNS Client Events/Operational'],
  'dns-server': ['DNS Server'],
  'dns-server-analytic': [
    'Microsoft-Windows-DNS-Server/Analytical',
    'Microsoft-Windows-DNSServer/Analytical',
  ],
  'dns-server-audit': ['Microsoft-Windows-DNS-Server/Audit', 'Microsoft-Windows-DNSServer/Audit'],
  'driver-framework': ['Microsoft-Windows-DriverFrameworks-UserMode/Operational'],
  dhcp: ['Microsoft-Windows-DHCP-Server/Operational'],
  ntlm: ['Microsoft-Windows-NTLM/Operational'],
  'msexchange-management': ['MSExchange Management'],
  'printservice-admin': ['Microsoft-Windows-PrintService/Admin'],
  'printservice-operational': ['Microsoft-Windows-PrintService/Operational'],
  'smbclient-security': ['Microsoft-Windows-SmbClient/Security'],
  'smbclient-connectivity': ['Microsoft-Windows-SmbClient/Connectivity'],
  'smbserver-connectivity': ['Microsoft-Windows-SMBServer/Connectivity'],
  'terminalservices-localsessionmanager': [
    'Microsoft-Windows-TerminalServices-LocalSessionManager/Operational',
  ],
  'security-mitigations': [
    'Microsoft-Windows-Security-Mitigations/Kernel Mode',
    'Microsoft-Windows-Security-Mitigations/User Mode',
  ],
  'diagnosis-scripted': ['Microsoft-Windows-Diagnosis-Scripted/Operational'],
  'shell-core': ['Microsoft-Windows-Shell-Core/Operational'],
  openssh: ['OpenSSH/Operational'],
  ldap: ['Microsoft-Windows-LDAP-Client/Debug'],
  bitlocker: ['Microsoft-Windows-BitLocker/BitLocker Management'],
  vhdmp: ['Microsoft-Windows-VHDMP/Operational'],
  'appxdeployment-server': ['Microsoft-Windows-AppXDeploymentServer/Operational'],
  'appxpackaging-om': ['Microsoft-Windows-AppxPackaging/Operational'],
  'appmodel-runtime': ['Microsoft-Windows-AppModel-Runtime/Admin'],
  'lsa-server': ['Microsoft-Windows-LSA/Operational'],
  capi2: ['Microsoft-Windows-CAPI2/Operational'],
  'certificateservicesclient-lifecycle-system': [
    'Microsoft-Windows-CertificateServicesClient-Lifecycle-System/Operational',
  ],
  'kernel-shimengine': [
    'Microsoft-Windows-Kernel-ShimEngine/Operational',
    'Microsoft-Windows-Kernel-ShimEngine/Diagnostic',
  ],
  'application-experience': [
    'Microsoft-Windows-Application-Experience/Program-Telemetry',
    'Microsoft-Windows-Application-Experience/Program-Compatibility-Assistant',
  ],
  ntfs: ['Microsoft-Windows-Ntfs/Operational'],
  'hyper-v-worker': ['Microsoft-Windows-Hyper-V-Worker*'],
  'kernel-event-tracing': ['Microsoft-Windows-Kernel-EventTracing*'],
  sense: ['Microsoft-Windows-SENSE/Operational'],
  'servicebus-client': ['Microsoft-ServiceBus-Client/Operational', 'Microsoft-ServiceBus-Client/Admin'],
  'iis-configuration': ['Microsoft-IIS-Configuration/Operational'],
};

describe('the mapping table', () => {
  test('every category maps to the channels and event ids of §3.4, and the table has no other category', () => {
    assert.deepEqual(Object.keys(CATEGORIES).sort(), Object.keys(CATEGORY_ROWS).sort());
    for (const [category, rows] of Object.entries(CATEGORY_ROWS)) {
      const got = variants(
        rule(`product: windows\ncategory: ${category}`, "sel:\n  Image|endswith: '.exe'\ncondition: sel"),
      );
      assert.deepEqual(
        got.map((v) => [
          v.name,
          (v.selector.channels as { name: string }[]).map((c) => c.name),
          v.selector.eventIds,
        ]),
        rows,
        category,
      );
      for (const v of got) {
        const [, [channel], ids] = rows.find(([name]) => name === v.name)!;
        const where =
          category === 'registry_add'
            ? { EventType: 'CreateKey' }
            : category === 'registry_delete'
              ? { EventType: 'DeleteValue' }
              : {};
        assert.equal(
          v.accepts(ev({ Channel: channel, EventID: ids[0], ...where })),
          true,
          `${category}/${v.name}`,
        );
        assert.equal(v.accepts(ev({ Channel: channel, EventID: 99999, ...where })), false);
        assert.equal(v.accepts(ev({ Channel: 'Other', EventID: ids[0], ...where })), false);
      }
    }
  });

  test('every service maps to its channels, and the table has no other service', () => {
    assert.deepEqual(Object.keys(SERVICES).sort(), Object.keys(SERVICE_CHANNELS).sort());
    for (const [service, channels] of Object.entries(SERVICE_CHANNELS)) {
      const [v] = variants(
        rule(`product: windows\nservice: ${service}`, 'sel:\n  EventID: 7\ncondition: sel'),
      );
      assert.equal(v!.name, service);
      assert.equal(v!.selector.eventIds, 'any');
      const got = (v!.selector.channels as { name: string; prefix?: boolean }[]).map(
        (c) => c.name + (c.prefix ? '*' : ''),
      );
      assert.deepEqual(got, channels, service);
      for (const c of channels) {
        const channel = c.endsWith('*') ? `${c.slice(0, -1)}-Admin` : c;
        assert.equal(v!.accepts(ev({ Channel: channel, EventID: 7 })), true, `${service}: ${channel}`);
      }
    }
  });

  test('channels compare case-insensitively; prefix channels match longer names only from the start', () => {
    const [sysmon] = variants(
      rule('product: windows\ncategory: image_load', "sel:\n  ImageLoaded|endswith: '.dll'\ncondition: sel"),
    );
    assert.equal(sysmon!.accepts(ev({ Channel: 'microsoft-windows-SYSMON/operational', EventID: 7 })), true);
    const [hv] = variants(
      rule('product: windows\nservice: hyper-v-worker', 'sel:\n  EventID: 18560\ncondition: sel'),
    );
    assert.equal(
      hv!.matches(ev({ Channel: 'Microsoft-Windows-Hyper-V-Worker-Admin', EventID: 18560 })),
      true,
    );
    assert.equal(hv!.matches(ev({ Channel: 'X-Microsoft-Windows-Hyper-V-Worker', EventID: 18560 })), false);
  });

  test('aliases: clipboard_change and file_block map like clipboard_capture and file_block_executable; ldap_debug like ldap', () => {
    const ids = (category: string) =>
      variants(
        rule(`product: windows\ncategory: ${category}`, "sel:\n  Image|endswith: '.exe'\ncondition: sel"),
      )[0]!.selector.eventIds;
    assert.deepEqual(ids('clipboard_change'), [24]);
    assert.deepEqual(ids('file_block'), [27]);
    const [ldap] = variants(
      rule('product: windows\nservice: ldap_debug', 'sel:\n  EventID: 30\ncondition: sel'),
    );
    assert.equal(ldap!.accepts(ev({ Channel: 'Microsoft-Windows-LDAP-Client/Debug', EventID: 30 })), true);
  });

  test('registry_add needs EventType CreateKey and registry_delete DeleteKey or DeleteValue (thor.yml)', () => {
    const add = variants(
      rule(
        'product: windows\ncategory: registry_add',
        "sel:\n  TargetObject|contains: 'Run'\ncondition: sel",
      ),
    )[0]!;
    const del = variants(
      rule(
        'product: windows\ncategory: registry_delete',
        "sel:\n  TargetObject|contains: 'Run'\ncondition: sel",
      ),
    )[0]!;
    const e = (type: string) =>
      ev({ Channel: SYSMON, EventID: 12, EventType: type, TargetObject: R`HKLM\Run\x` });
    assert.equal(add.matches(e('CreateKey')), true);
    assert.equal(add.matches(e('DeleteKey')), false);
    assert.equal(del.matches(e('DeleteKey')), true);
    assert.equal(del.matches(e('DeleteValue')), true);
    assert.equal(del.matches(e('CreateKey')), false);
  });

  test('the security4688 option turns the Security variant off', () => {
    const r = rule(
      'product: windows\ncategory: process_creation',
      "sel:\n  Image|endswith: '.exe'\ncondition: sel",
    );
    assert.deepEqual(
      variants(r, { security4688: false }).map((v) => v.name),
      ['sysmon'],
    );
  });
});

describe('rules without variants say why', () => {
  const reason = (logsource: string) => {
    const m = mapRule(rule(logsource, 'sel:\n  a: b\ncondition: sel'));
    assert.equal(m.ok, false);
    return m.ok ? undefined : m.diagnostic.code;
  };

  test('other products and generic non-EVTX categories are not applicable to event logs', () => {
    for (const p of ['linux', 'macos', 'aws', 'azure', 'okta'])
      assert.equal(reason(`product: ${p}\ncategory: process_creation`), 'logsource.not_applicable', p);
    assert.equal(reason('category: proxy'), 'logsource.not_applicable');
    assert.equal(reason('category: webserver'), 'logsource.not_applicable');
    assert.equal(reason('service: apache'), 'logsource.not_applicable');
  });

  test('ETW-only categories are unsupported', () => {
    assert.equal(reason('product: windows\ncategory: file_access'), 'logsource.unsupported');
    assert.equal(reason('product: windows\ncategory: file_rename'), 'logsource.unsupported');
  });

  test('unknown categories and services are reported, never guessed (prototype names included)', () => {
    assert.equal(reason('product: windows\ncategory: process_creationn'), 'logsource.unknown');
    assert.equal(reason('product: windows\nservice: securityy'), 'logsource.unknown');
    assert.equal(reason('product: windows\ncategory: constructor'), 'logsource.unknown');
    assert.equal(reason('product: windows\nservice: __proto__'), 'logsource.unknown');
    assert.equal(reason('category: nothing_known'), 'logsource.unknown');
  });

  test('a category without a product maps (antivirus); product windows alone applies to every event', () => {
    const [av] = variants(
      rule('category: antivirus', "sel:\n  Signature|contains: 'Mimikatz'\ncondition: sel"),
    );
    assert.equal(av!.name, 'windefend');
    const [all] = variants(rule('product: windows', "sel:\n  - 'sekurlsa::'\ncondition: sel"));
    assert.equal(all!.name, 'windows');
    assert.equal(
      all!.matches(ev({ Channel: 'Anything/Else', EventID: 1, Data: 'x sekurlsa::logonpasswords' })),
      true,
    );
  });

  test('category and service together keep only the category rows in that service', () => {
    const r = rule(
      'product: windows\ncategory: process_creation\nservice: security',
      "sel:\n  Image|endswith: '.exe'\ncondition: sel",
    );
    assert.deepEqual(
      variants(r).map((v) => v.name),
      ['security'],
    );
    assert.equal(
      mapRule(
        rule('product: windows\ncategory: image_load\nservice: security', 'sel:\n  a: b\ncondition: sel'),
      ).ok,
      false,
    );
  });
});
