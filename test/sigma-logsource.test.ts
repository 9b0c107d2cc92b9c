/**
 * Windows logsource mapping (sigma-semantics.md §3.4): the table, the reasons for unmapped
 * rules, the Security 4688 translation on events written by our EVTX writer and decoded by our
 * decoder, the pessimistic reading of Sysmon-only fields, filters, and the YAML round trip.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type EventDescription, type EvtxValue, writeEvtx } from '../fixtures/evtx-writer/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import {
  CATEGORIES,
  eventFromObject,
  loadRules,
  type MappingOptions,
  mapRule,
  type RuleVariant,
  SERVICES,
  type SigmaEvent,
  type SigmaFilter,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../src/sigma/index.js';

const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
const PS = ['Microsoft-Windows-PowerShell/Operational', 'PowerShellCore/Operational'];
const DEFENDER = 'Microsoft-Windows-Windows Defender/Operational';

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

const R = String.raw;

function rule(logsource: string, detection: string, extra = ''): SigmaRule {
  const text = `title: t\nid: 11111111-1111-1111-1111-111111111111\n${extra}logsource:\n${logsource
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\ndetection:\n${detection
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
  const r = loadRules(text, 't.yml');
  assert.deepEqual(r.diagnostics, []);
  return r.rules[0]!;
}

function variants(r: SigmaRule, options?: MappingOptions): RuleVariant[] {
  const m = mapRule(r, options);
  assert.ok(m.ok, m.ok ? '' : m.diagnostic.message);
  return [...m.variants];
}

const ev = (fields: Record<string, unknown>): SigmaEvent => eventFromObject(fields);

async function decode(events: EventDescription[]): Promise<EvtxEvent[]> {
  const out: EvtxEvent[] = [];
  for await (const r of parseEvtx(Buffer.from(writeEvtx(events)), { outputs: ['event'] }))
    if (r.event) out.push(r.event);
  return out;
}

const base = { time: '2024-05-01T10:00:00Z', computer: 'WS1' };

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

describe('Security 4688 variants', () => {
  const pc = 'product: windows\ncategory: process_creation';
  const security = (r: SigmaRule) => variants(r).find((v) => v.name === 'security');

  test('Image, ParentImage, LogonId, process ids (decimal → hex), IntegrityLevel (→ SID) and User (domain split) translate', async () => {
    const r = rule(
      pc,
      R`sel:
  Image|endswith: '\whoami.exe'
  ParentImage|endswith: '\cmd.exe'
  LogonId: '0x3e7'
  ProcessId: 420
  ParentProcessId: '4660'
  IntegrityLevel: High
  User: 'NT AUTHORITY\SYSTEM'
condition: sel`,
    );
    const v = security(r)!;
    const data = (over: Record<string, EvtxValue>): EventDescription => ({
      ...base,
      provider: 'Microsoft-Windows-Security-Auditing',
      channel: 'Security',
      eventId: 4688,
      eventData: {
        SubjectUserName: 'SYSTEM',
        SubjectDomainName: 'NT AUTHORITY',
        SubjectLogonId: { type: 'hex64', value: 0x3e7n },
        NewProcessId: { type: 'hex64', value: 420n },
        NewProcessName: R`C:\Windows\System32\whoami.exe`,
        ProcessId: { type: 'hex64', value: 4660n },
        ParentProcessName: R`C:\Windows\System32\cmd.exe`,
        MandatoryLabel: { type: 'sid', value: 'S-1-16-12288' },
        ...over,
      },
    });
    const [hit, lowLabel, otherPid, otherDomain] = await decode([
      data({}),
      data({ MandatoryLabel: { type: 'sid', value: 'S-1-16-8192' } }),
      data({ NewProcessId: { type: 'hex64', value: 421n } }),
      data({ SubjectDomainName: 'CORP' }),
    ]);
    assert.equal(hit!.data.NewProcessId, '0x1a4', 'the decoder renders 4688 ids in hex');
    assert.equal(v.matches(sigmaEventFromEvtx(hit!)), true);
    assert.equal(v.matches(sigmaEventFromEvtx(lowLabel!)), false);
    assert.equal(v.matches(sigmaEventFromEvtx(otherPid!)), false);
    assert.equal(v.matches(sigmaEventFromEvtx(otherDomain!)), false);
    // The Sysmon variant still reads Sysmon's names.
    const sysmon = variants(r).find((x) => x.name === 'sysmon')!;
    assert.equal(sysmon.matches(sigmaEventFromEvtx(hit!)), false);
  });

  test('User values split by modifier: contains looks at both parts, startswith at the domain, endswith at the user', () => {
    const e = ev({
      Channel: 'Security',
      EventID: 4688,
      SubjectDomainName: 'NT AUTHORITY',
      SubjectUserName: 'SYSTEM',
    });
    const m = (item: string) => security(rule(pc, `sel:\n  ${item}\ncondition: sel`))!.matches(e);
    assert.equal(m("User|contains: ['AUTHORI', 'AUTORI']"), true);
    assert.equal(m("User|contains: 'SYST'"), true);
    assert.equal(m(R`User|contains: 'ORITY\SYS'`), true);
    assert.equal(m(R`User|contains: 'ORITY\X'`), false);
    assert.equal(m("User|startswith: 'NT AUTH'"), true);
    assert.equal(m("User|startswith: 'SYS'"), false);
    assert.equal(m(R`User|endswith: '\SYSTEM'`), true);
    assert.equal(m("User|endswith: 'AUTHORITY'"), false);
    assert.equal(m(R`User|contains|all: ['NT', 'THORITY\SYS']`), true);
  });

  test('a variant whose selections need Sysmon-only fields is dropped with those fields as reason', () => {
    const m = mapRule(rule(pc, "sel:\n  OriginalFileName: 'whoami.exe'\ncondition: sel"));
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
    assert.equal(m.dropped.length, 1);
    assert.equal(m.dropped[0]!.code, 'logsource.fields_unavailable');
    assert.match(m.dropped[0]!.message, /selections need OriginalFileName/);
  });

  test('an alternative on a Sysmon-only field folds away and the rest still matches 4688', () => {
    const v = security(
      rule(
        pc,
        R`sel:
  - Image|endswith: '\certutil.exe'
  - OriginalFileName: 'CertUtil.exe'
cli:
  CommandLine|contains: urlcache
condition: sel and cli`,
      ),
    )!;
    assert.deepEqual(v.unavailableFields, ['OriginalFileName']);
    const e = (image: string) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: image,
        CommandLine: 'certutil -urlcache -f http://x',
      });
    assert.equal(v.matches(e(R`C:\Windows\System32\certutil.exe`)), true);
    assert.equal(v.matches(e(R`C:\Temp\renamed.exe`)), false);
  });

  test('an exclusion on a Sysmon-only field never lets a 4688 event through that Sysmon would have excluded', () => {
    // Read as absent, `not filter` would always be true on 4688: every hit a potential false positive.
    const m = mapRule(
      rule(
        pc,
        R`sel:
  Image|endswith: '\rundll32.exe'
filter:
  Hashes|contains: 'IMPHASH=ABC'
condition: sel and not filter`,
      ),
    );
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
    assert.match(m.dropped[0]!.message, /an exclusion depends on Hashes/);
    // Partly unavailable exclusion: it is assumed to hold as far as the unavailable part goes.
    const v = security(
      rule(
        pc,
        R`sel:
  Image|endswith: '\rundll32.exe'
filter:
  ParentImage|endswith: '\legit.exe'
  Company: 'Legit Corp'
condition: sel and not filter`,
      ),
    )!;
    const e = (parent: string) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: R`C:\w\rundll32.exe`,
        ParentProcessName: parent,
      });
    assert.equal(v.matches(e(R`C:\x\legit.exe`)), false, 'Sysmon could have excluded it (Company unknown)');
    assert.equal(v.matches(e(R`C:\x\other.exe`)), true, 'no value of Company could exclude it');
  });

  test('a positive null test on a Sysmon-only field does not match 4688 (unknown is not null)', () => {
    const m = mapRule(
      rule(
        pc,
        R`sel:
  Image|endswith: '\a.exe'
  OriginalFileName: null
condition: sel`,
      ),
    );
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
  });
});

describe('antivirus and forwarded events', () => {
  test('antivirus renames Signature to ThreatName and Filename to Path, found through Defender spaced names', async () => {
    const [v] = variants(
      rule(
        'category: antivirus',
        R`sel:
  Signature|contains: 'Mimikatz'
  Filename|endswith: '.exe'
condition: sel`,
      ),
    );
    const [e] = await decode([
      {
        ...base,
        provider: 'Microsoft-Windows-Windows Defender',
        channel: DEFENDER,
        eventId: 1116,
        eventData: { 'Threat Name': 'HackTool:Win32/Mimikatz.D', Path: R`file:_C:\t\m.exe` },
      },
    ]);
    assert.equal(v!.matches(sigmaEventFromEvtx(e!)), true);
    assert.equal(
      v!.matches(ev({ Channel: DEFENDER, EventID: 1151, ThreatName: 'Mimikatz', Path: 'm.exe' })),
      false,
    );
  });

  test('ForwardedEvents match by provider where §3.4 names one, and only there', () => {
    const [sysmon] = variants(
      rule('product: windows\ncategory: image_load', "sel:\n  ImageLoaded|endswith: 'x.dll'\ncondition: sel"),
    );
    const fwd = (provider: string, id: number, extra: Record<string, unknown> = {}) =>
      ev({ Channel: 'ForwardedEvents', Provider_Name: provider, EventID: id, ...extra });
    assert.equal(sysmon!.matches(fwd('Microsoft-Windows-Sysmon', 7, { ImageLoaded: R`C:\x.dll` })), true);
    assert.equal(sysmon!.matches(fwd('Other', 7, { ImageLoaded: R`C:\x.dll` })), false);
    const [sec] = variants(
      rule('product: windows\nservice: security', 'sel:\n  EventID: [1102, 4624]\ncondition: sel'),
    );
    assert.equal(sec!.matches(fwd('Microsoft-Windows-Eventlog', 1102)), true);
    assert.equal(
      sec!.matches(fwd('Microsoft-Windows-Eventlog', 4624)),
      false,
      'Eventlog stands for Security only in 1102',
    );
    assert.equal(sec!.matches(fwd('Microsoft-Windows-Security-Auditing', 4624)), true);
    const [sys] = variants(
      rule('product: windows\nservice: system', 'sel:\n  EventID: 7045\ncondition: sel'),
    );
    assert.equal(sys!.matches(fwd('Service Control Manager', 7045)), false);
    const [off] = variants(
      rule('product: windows\ncategory: image_load', "sel:\n  ImageLoaded|endswith: 'x.dll'\ncondition: sel"),
      {
        forwardedEvents: false,
      },
    );
    assert.equal(off!.matches(fwd('Microsoft-Windows-Sysmon', 7, { ImageLoaded: R`C:\x.dll` })), false);
  });
});

describe('filters (pySigma semantics)', () => {
  const target = rule(
    'product: windows\ncategory: process_creation',
    "sel:\n  Image|endswith: '.exe'\ncondition: sel",
    'name: my_rule\n',
  );
  const filterDoc = (rules: string, logsource = 'product: windows\n  category: process_creation') =>
    loadRules(
      `title: f\nlogsource:\n  ${logsource}\nfilter:\n  rules: ${rules}\n  sel:\n    User|startswith: 'adm_'\n  condition: not sel\n`,
      'f.yml',
    ).filters[0]!;
  const sysmonEvent = (user: string) =>
    ev({ Channel: SYSMON, EventID: 1, Image: R`C:\a.exe`, User: `CORP\\${user}` });
  const sysmonOf = (filters: SigmaFilter[]) =>
    variants(target, { filters }).find((v) => v.name === 'sysmon')!;

  test('a filter naming the rule by id, by name or with any is ANDed with its condition', () => {
    for (const rules of ['[11111111-1111-1111-1111-111111111111]', '[my_rule]', 'any']) {
      const v = sysmonOf([filterDoc(rules)]);
      assert.equal(v.filters.length, 1, rules);
      assert.equal(v.matches(sysmonEvent('bob')), true);
      assert.equal(
        v.matches(sysmonEvent('adm_bob')),
        true,
        'User is DOMAIN\\user: startswith sees the domain',
      );
    }
    const v = sysmonOf([
      loadRules(
        "title: f\nlogsource:\n  category: process_creation\nfilter:\n  rules: any\n  sel:\n    User|endswith: '\\adm_bob'\n  condition: not sel\n",
        'f.yml',
      ).filters[0]!,
    ]);
    assert.equal(v.matches(sysmonEvent('adm_bob')), false);
    assert.equal(v.matches(sysmonEvent('carol')), true);
  });

  test('a filter for another rule or a logsource the rule is not in does not apply', () => {
    assert.equal(sysmonOf([filterDoc('[other_rule]')]).filters.length, 0);
    assert.equal(sysmonOf([filterDoc('any', 'product: windows\n  category: image_load')]).filters.length, 0);
  });

  test('filter fields are renamed with the rule in the 4688 variant', () => {
    const f = loadRules(
      "title: f\nlogsource:\n  product: windows\nfilter:\n  rules: any\n  sel:\n    ParentImage|endswith: '\\svchost.exe'\n  condition: not sel\n",
      'f.yml',
    ).filters[0]!;
    const v = variants(target, { filters: [f] }).find((x) => x.name === 'security')!;
    const e = (parent: string) =>
      ev({ Channel: 'Security', EventID: 4688, NewProcessName: R`C:\a.exe`, ParentProcessName: parent });
    assert.equal(v.matches(e(R`C:\w\svchost.exe`)), false);
    assert.equal(v.matches(e(R`C:\w\explorer.exe`)), true);
  });
});

describe('rendered variants', () => {
  const roundTrip = (v: RuleVariant, events: SigmaEvent[]) => {
    const text = v.renderYaml().join('\n');
    const back = loadRules(text, 'rendered.yml');
    assert.deepEqual(back.diagnostics, [], text);
    const again = back.rules[0]!;
    assert.equal(again.logsource.service, v.service);
    let hits = 0;
    for (const e of events) {
      const want = v.matches(e);
      assert.equal(again.matches(e), want, `${text}\n${JSON.stringify([...e.values()])}`);
      if (want) hits++;
    }
    return { text, hits };
  };

  test('a 4688 variant renders with service security, the injected selection and renamed fields, and reloads to the same verdicts', () => {
    const r = rule(
      'product: windows\ncategory: process_creation',
      R`selection:
  Image|endswith: '\net.exe'
  User|contains|all: ['AUTHOR', 'ITY\SYS']
  IntegrityLevel: [High, 'S-1-16-16384']
filter_main:
  - OriginalFileName: 'x'
  - ParentImage|contains: 'legit'
condition: selection and not 1 of filter_*`,
    );
    const m = mapRule(r);
    assert.ok(m.ok);
    const sec = m.variants.find((v) => v.name === 'security');
    assert.equal(sec, undefined, 'the OR-ed exclusion on OriginalFileName could always have held');
    const r2 = rule(
      'product: windows\ncategory: process_creation',
      R`selection:
  Image|endswith: '\net.exe'
  User|contains|all: ['NT', 'AUTH']
  IntegrityLevel: [High, 'S-1-16-16384']
filter_main:
  ParentImage|contains: 'legit'
condition: selection and not 1 of filter_*`,
    );
    const v = variants(r2).find((x) => x.name === 'security')!;
    const events = [
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-12288', R`C:\p.exe`],
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-8192', R`C:\p.exe`],
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-16384', R`C:\legit\p.exe`],
      ['CORP', 'SYSTEM', 'S-1-16-12288', R`C:\p.exe`],
    ].map(([domain, user, label, parent]) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: R`C:\Windows\net.exe`,
        SubjectDomainName: domain,
        SubjectUserName: user,
        MandatoryLabel: label,
        ParentProcessName: parent,
      }),
    );
    const { text, hits } = roundTrip(v, [...events, ev({ Channel: SYSMON, EventID: 1 })]);
    assert.equal(hits, 1);
    assert.match(text, /service: "security"/);
    assert.match(text, /_logsource/);
    assert.match(text, /NewProcessName\|endswith/);
    assert.match(text, /"S-1-16-12288"/, 'High became its SID');
    assert.match(text, /_selection_part2:/, 'two AND-ed items on one key were split into identifiers');
    assert.doesNotMatch(text, /\bImage\|/);
  });

  test('merged filters, windows-only rules and odd strings survive the round trip', () => {
    const f = loadRules(
      "title: f\nlogsource:\n  product: windows\nfilter:\n  rules: any\n  a:\n    CommandLine|contains: 'ok'\n  condition: not 1 of them\n",
      'f.yml',
    ).filters[0]!;
    const r = rule(
      'product: windows\ncategory: ps_script',
      'sel:\n  ScriptBlockText|contains: ["a\\"b", "line\\nbreak", "tab\\t", "00000429", "*wild?card*"]\nkw:\n  - "x:y"\ncondition: 1 of them',
    );
    const [v] = variants(r, { filters: [f] });
    const e = (text: string, extra: Record<string, unknown> = {}) =>
      ev({ Channel: PS[0], EventID: 4104, ScriptBlockText: text, ...extra });
    const { hits } = roundTrip(v!, [
      e('x a"b y'),
      e('line\nbreak'),
      e('tab\t'),
      e('00000429'),
      e('XwildQcardX'),
      e('x:y'),
      e('nothing'),
      e('a"b', { CommandLine: 'ok' }),
    ]);
    assert.equal(hits, 6);
    const [all] = variants(rule('product: windows', "kw:\n  - 'sekurlsa::'\ncondition: kw"));
    roundTrip(all!, [
      ev({ Channel: 'System', EventID: 1, X: 'sekurlsa::x' }),
      ev({ Channel: 'System', EventID: 1 }),
    ]);
  });
});
