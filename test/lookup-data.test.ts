/**
 * The built-in data: coverage floors, shape, freshness against its sources, and pinned well-known
 * rows. Over 400 lines because the pinned rows (about 300 lines) are two tables of data.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EVENT_ID_MODULE, FILE_NAME_MODULE } from '../fixtures/lookup/build-data.js';
import { EVENT_ID_TSV } from '../src/lookup/data/event-id.js';
import { FILE_NAME_TSV } from '../src/lookup/data/file-name.js';
import {
  builtinLookupDataset,
  COLUMNS,
  type LookupFilter,
  type LookupModule,
  lookupSync,
} from '../src/lookup/index.js';

const data = builtinLookupDataset();
const S4 = 'SubjectUserSid|SubjectUserName|SubjectDomainName|SubjectLogonId';

function eventRow(provider: string, id: string, version: string, os?: string): readonly string[] {
  const filter: LookupFilter[] = [
    { field: 'Provider', operator: 'equals', value: provider },
    { field: 'Event ID', operator: 'equals', value: id },
    { field: 'Version', operator: 'equals', value: version },
  ];
  if (os !== undefined) filter.push({ field: 'OS Version', operator: 'starts_with', value: os });
  const { rows } = lookupSync({ search: id, module: 'event_id', show: 100, filter });
  assert.ok(rows.length >= 1, `no row for ${provider} ${id} v${version}`);
  return rows[rows.length - 1] as string[];
}

describe('coverage', () => {
  test('row counts meet the floors (event_id ≥ 800, file_name ≥ 1,000)', () => {
    const counts = data.counts();
    const bytes = { event_id: EVENT_ID_TSV.length, file_name: FILE_NAME_TSV.length };
    console.log(`lookup rows: ${JSON.stringify(counts)}; data characters: ${JSON.stringify(bytes)}`);
    assert.ok(counts.event_id >= 800, `event_id has ${counts.event_id} rows`);
    assert.ok(counts.file_name >= 1000, `file_name has ${counts.file_name} rows`);
  });

  test('every family the issue names is present', () => {
    const providers = new Set(data.tables.event_id.rows.map((r) => r[3]));
    for (const p of [
      'Microsoft-Windows-Security-Auditing',
      'Microsoft-Windows-Sysmon',
      'Service Control Manager',
      'Microsoft-Windows-Kernel-Power',
      'Microsoft-Windows-Eventlog',
      'Microsoft-Windows-Time-Service',
      'Microsoft-Windows-WindowsUpdateClient',
      'PowerShell',
      'Microsoft-Windows-PowerShell',
      'Microsoft-Windows-TaskScheduler',
      'Microsoft-Windows-Windows Defender',
      'Microsoft-Windows-TerminalServices-LocalSessionManager',
      'Microsoft-Windows-WMI-Activity',
      'Microsoft-Windows-Bits-Client',
      'Microsoft-Windows-AppLocker',
      'Microsoft-Windows-CodeIntegrity',
      'Microsoft-Windows-Windows Firewall With Advanced Security',
      'Microsoft-Windows-SMBServer',
      'Microsoft-Windows-NTLM',
      'Microsoft-Windows-GroupPolicy',
    ])
      assert.ok(providers.has(p), p);
    const sysmonIds = new Set(
      data.tables.event_id.rows.filter((r) => r[3] === 'Microsoft-Windows-Sysmon').map((r) => r[0]),
    );
    for (let id = 1; id <= 29; id++) assert.ok(sysmonIds.has(String(id)), `Sysmon event ${id}`);
  });
});

describe('shape', () => {
  for (const module of ['event_id', 'file_name'] as LookupModule[]) {
    test(`${module} rows have one cell per column and no tab, line break or leading/trailing space`, () => {
      for (const r of data.tables[module].rows) {
        assert.equal(r.length, COLUMNS[module].length);
        for (const c of r) assert.ok(!/[\t\r\n]/.test(c) && c === c.trim(), JSON.stringify(r));
        assert.notEqual(r[0], '');
      }
    });
  }

  test('event rows: numeric Event ID and Version, |-joined fields without empty names or duplicates', () => {
    for (const r of data.tables.event_id.rows) {
      assert.match(r[0] as string, /^\d+$/);
      assert.match(r[2] as string, /^\d*$/);
      const fields = (r[5] as string) === '' ? [] : (r[5] as string).split('|');
      assert.ok(
        fields.every((f) => f !== ''),
        JSON.stringify(r),
      );
      assert.equal(new Set(fields).size, fields.length, `duplicate field in ${r[3]} ${r[0]}`);
    }
  });

  test('no two event rows share provider, id, version, OS versions and fields', () => {
    const keys = data.tables.event_id.rows.map((r) => [r[3], r[0], r[2], r[1], r[5]].join('\t'));
    assert.equal(new Set(keys).size, keys.length);
  });

  test('file paths end with the file name and file rows are unique per path', () => {
    for (const r of data.tables.file_name.rows)
      for (const p of (r[1] as string).split('##'))
        assert.ok(p.toLowerCase().endsWith(`\\${(r[0] as string).toLowerCase()}`), p);
    const paths = data.tables.file_name.rows.map((r) => (r[1] as string).toLowerCase());
    assert.equal(new Set(paths).size, paths.length);
  });

  test('the shipped data modules are exactly what the generator builds from the sources', () => {
    assert.equal(
      `export const EVENT_ID_TSV: string =\n  ${JSON.stringify(EVENT_ID_TSV)};\n`,
      EVENT_ID_MODULE().slice(EVENT_ID_MODULE().indexOf('export')),
    );
    assert.equal(
      `export const FILE_NAME_TSV: string =\n  ${JSON.stringify(FILE_NAME_TSV)};\n`,
      FILE_NAME_MODULE().slice(FILE_NAME_MODULE().indexOf('export')),
    );
  });
});

/** Well-known events with their exact data fields (provider, id, version → fields). */
const EVENTS: [string, string, string, string, string?][] = [
  [
    'Microsoft-Windows-Security-Auditing',
    '4624',
    '2',
    `${S4}|TargetUserSid|TargetUserName|TargetDomainName|TargetLogonId|LogonType|LogonProcessName|AuthenticationPackageName|WorkstationName|LogonGuid|TransmittedServices|LmPackageName|KeyLength|ProcessId|ProcessName|IpAddress|IpPort|ImpersonationLevel|RestrictedAdminMode|TargetOutboundUserName|TargetOutboundDomainName|VirtualAccount|TargetLinkedLogonId|ElevatedToken`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4624',
    '1',
    `${S4}|TargetUserSid|TargetUserName|TargetDomainName|TargetLogonId|LogonType|LogonProcessName|AuthenticationPackageName|WorkstationName|LogonGuid|TransmittedServices|LmPackageName|KeyLength|ProcessId|ProcessName|IpAddress|IpPort|ImpersonationLevel`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4625',
    '0',
    `${S4}|TargetUserSid|TargetUserName|TargetDomainName|Status|FailureReason|SubStatus|LogonType|LogonProcessName|AuthenticationPackageName|WorkstationName|TransmittedServices|LmPackageName|KeyLength|ProcessId|ProcessName|IpAddress|IpPort`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4634',
    '0',
    'TargetUserSid|TargetUserName|TargetDomainName|TargetLogonId|LogonType',
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4647',
    '0',
    'TargetUserSid|TargetUserName|TargetDomainName|TargetLogonId',
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4648',
    '0',
    `${S4}|LogonGuid|TargetUserName|TargetDomainName|TargetLogonGuid|TargetServerName|TargetInfo|ProcessId|ProcessName|IpAddress|IpPort`,
  ],
  ['Microsoft-Windows-Security-Auditing', '4672', '0', `${S4}|PrivilegeList`],
  [
    'Microsoft-Windows-Security-Auditing',
    '4688',
    '2',
    `${S4}|NewProcessId|NewProcessName|TokenElevationType|ProcessId|CommandLine|TargetUserSid|TargetUserName|TargetDomainName|TargetLogonId|ParentProcessName|MandatoryLabel`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4688',
    '1',
    `${S4}|NewProcessId|NewProcessName|TokenElevationType|ProcessId|CommandLine`,
  ],
  ['Microsoft-Windows-Security-Auditing', '4689', '0', `${S4}|Status|ProcessId|ProcessName`],
  [
    'Microsoft-Windows-Security-Auditing',
    '4697',
    '0',
    `${S4}|ServiceName|ServiceFileName|ServiceType|ServiceStartType|ServiceAccount`,
  ],
  ['Microsoft-Windows-Security-Auditing', '4698', '0', `${S4}|TaskName|TaskContent`],
  ['Microsoft-Windows-Security-Auditing', '4702', '0', `${S4}|TaskName|TaskContentNew`],
  [
    'Microsoft-Windows-Security-Auditing',
    '4719',
    '0',
    `${S4}|CategoryId|SubcategoryId|SubcategoryGuid|AuditPolicyChanges`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4720',
    '0',
    `TargetUserName|TargetDomainName|TargetSid|${S4}|PrivilegeList|SamAccountName|DisplayName|UserPrincipalName|HomeDirectory|HomePath|ScriptPath|ProfilePath|UserWorkstations|PasswordLastSet|AccountExpires|PrimaryGroupId|AllowedToDelegateTo|OldUacValue|NewUacValue|UserAccountControl|UserParameters|SidHistory|LogonHours`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4726',
    '0',
    `TargetUserName|TargetDomainName|TargetSid|${S4}|PrivilegeList`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4728',
    '0',
    `MemberName|MemberSid|TargetUserName|TargetDomainName|TargetSid|${S4}|PrivilegeList`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4732',
    '0',
    `MemberName|MemberSid|TargetUserName|TargetDomainName|TargetSid|${S4}|PrivilegeList`,
  ],
  ['Microsoft-Windows-Security-Auditing', '4740', '0', `TargetUserName|TargetDomainName|TargetSid|${S4}`],
  [
    'Microsoft-Windows-Security-Auditing',
    '4768',
    '0',
    'TargetUserName|TargetDomainName|TargetSid|ServiceName|ServiceSid|TicketOptions|Status|TicketEncryptionType|PreAuthType|IpAddress|IpPort|CertIssuerName|CertSerialNumber|CertThumbprint',
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4769',
    '0',
    'TargetUserName|TargetDomainName|ServiceName|ServiceSid|TicketOptions|TicketEncryptionType|IpAddress|IpPort|Status|LogonGuid|TransmittedServices',
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '4771',
    '0',
    'TargetUserName|TargetSid|ServiceName|TicketOptions|Status|PreAuthType|IpAddress|IpPort|CertIssuerName|CertSerialNumber|CertThumbprint',
  ],
  ['Microsoft-Windows-Security-Auditing', '4776', '0', 'PackageName|TargetUserName|Workstation|Status'],
  [
    'Microsoft-Windows-Security-Auditing',
    '5140',
    '1',
    `${S4}|ObjectType|IpAddress|IpPort|ShareName|ShareLocalPath|AccessMask|AccessList`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '5145',
    '0',
    `${S4}|ObjectType|IpAddress|IpPort|ShareName|ShareLocalPath|RelativeTargetName|AccessMask|AccessList|AccessReason`,
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '5156',
    '1',
    'ProcessID|Application|Direction|SourceAddress|SourcePort|DestAddress|DestPort|Protocol|FilterRTID|LayerName|LayerRTID|RemoteUserID|RemoteMachineID',
    'Windows 8',
  ],
  [
    'Microsoft-Windows-Security-Auditing',
    '5156',
    '1',
    'ProcessID|Application|Direction|SourceAddress|SourcePort|DestAddress|DestPort|Protocol|InterfaceIndex|FilterOrigin|FilterRTID|LayerName|LayerRTID|RemoteUserID|RemoteMachineID',
    'Windows 11',
  ],
  ['Microsoft-Windows-Security-Auditing', '4776', '0', 'PackageName|TargetUserName|Workstation|Status'],
  ['Microsoft-Windows-Security-Auditing', '5140', '0', `${S4}|IpAddress|IpPort|ShareName`],
  [
    'Microsoft-Windows-Security-Auditing',
    '5140',
    '1',
    `${S4}|ObjectType|IpAddress|IpPort|ShareName|ShareLocalPath|AccessMask|AccessList`,
  ],
  ['Microsoft-Windows-Eventlog', '1102', '0', S4],
  ['Microsoft-Windows-Eventlog', '104', '0', 'SubjectUserName|SubjectDomainName|Channel|BackupPath'],
  ['Service Control Manager', '7045', '0', 'ServiceName|ImagePath|ServiceType|StartType|AccountName'],
  ['Service Control Manager', '7036', '0', 'param1|param2'],
  ['Service Control Manager', '7040', '0', 'param1|param2|param3|param4'],
  [
    'Microsoft-Windows-Sysmon',
    '3',
    '5',
    'RuleName|UtcTime|ProcessGuid|ProcessId|Image|User|Protocol|Initiated|SourceIsIpv6|SourceIp|SourceHostname|SourcePort|SourcePortName|DestinationIsIpv6|DestinationIp|DestinationHostname|DestinationPort|DestinationPortName',
  ],
  [
    'Microsoft-Windows-Sysmon',
    '10',
    '3',
    'RuleName|UtcTime|SourceProcessGUID|SourceProcessId|SourceThreadId|SourceImage|TargetProcessGUID|TargetProcessId|TargetImage|GrantedAccess|CallTrace|SourceUser|TargetUser',
  ],
  [
    'Microsoft-Windows-Sysmon',
    '11',
    '2',
    'RuleName|UtcTime|ProcessGuid|ProcessId|Image|TargetFilename|CreationUtcTime|User',
  ],
  [
    'Microsoft-Windows-Sysmon',
    '13',
    '2',
    'RuleName|EventType|UtcTime|ProcessGuid|ProcessId|Image|TargetObject|Details|User',
  ],
  [
    'Microsoft-Windows-Sysmon',
    '22',
    '5',
    'RuleName|UtcTime|ProcessGuid|ProcessId|QueryName|QueryStatus|QueryResults|Image|User',
  ],
  [
    'Microsoft-Windows-Sysmon',
    '29',
    '5',
    'RuleName|UtcTime|ProcessGuid|ProcessId|User|Image|TargetFilename|Hashes',
  ],
  [
    'Microsoft-Windows-PowerShell',
    '4104',
    '1',
    'MessageNumber|MessageTotal|ScriptBlockText|ScriptBlockId|Path',
  ],
  ['Microsoft-Windows-PowerShell', '4103', '1', 'ContextInfo|UserData|Payload'],
  ['Microsoft-Windows-Windows Defender', '5007', '0', 'Product Name|Product Version|Old Value|New Value'],
  ['Microsoft-Windows-TerminalServices-RemoteConnectionManager', '1149', '0', 'Param1|Param2|Param3'],
  [
    'Microsoft-Windows-Bits-Client',
    '59',
    '1',
    'transferId|name|Id|url|peer|fileTime|fileLength|bytesTotal|bytesTransferred|bytesTransferredFromPeer',
  ],
];

describe('pinned event rows', () => {
  for (const [provider, id, version, fields, os] of EVENTS) {
    test(`${provider} ${id} v${version}${os ? ` (${os})` : ''} has its exact data fields`, () => {
      assert.equal(eventRow(provider, id, version, os)[5], fields);
    });
  }

  test('Sysmon 1 carries ParentUser from schema 4.80 and OriginalFileName from 4.21', () => {
    const rows = lookupSync({
      search: '1',
      module: 'event_id',
      show: 20,
      filter: [
        { field: 'Provider', operator: 'equals', value: 'Microsoft-Windows-Sysmon' },
        { field: 'Event ID', operator: 'equals', value: '1' },
      ],
    }).rows;
    const by = (schema: string) =>
      rows.find((r) => (r[8] as string).split(/[ |]/).includes(schema))?.[5] as string;
    assert.ok(by('4.90').endsWith('|ParentCommandLine|ParentUser'));
    assert.ok(
      by('4.21').includes('|Company|OriginalFileName|CommandLine|') && !by('4.21').includes('ParentUser'),
    );
    assert.ok(!by('4.2').includes('OriginalFileName') && by('4.2').startsWith('RuleName|'));
    assert.ok(by('3.4').startsWith('UtcTime|ProcessGuid'));
    assert.ok(by('2.0').startsWith('SequenceNumber|'));
  });
});

/** Well-known native files with exact version-info strings (name, folder → description, product). */
const FILES: [string, string, string, string, string?][] = [
  [
    'cmd.exe',
    'C:\\Windows\\System32',
    'Windows Command Processor',
    'Microsoft® Windows® Operating System',
    'C:\\Windows\\system32\\cmd.exe',
  ],
  [
    'lsass.exe',
    'C:\\Windows\\System32',
    'Local Security Authority Process',
    'Microsoft® Windows® Operating System',
  ],
  [
    'svchost.exe',
    'C:\\Windows\\System32',
    'Host Process for Windows Services',
    'Microsoft® Windows® Operating System',
  ],
  [
    'rundll32.exe',
    'C:\\Windows\\System32',
    'Windows host process (Rundll32)',
    'Microsoft® Windows® Operating System',
  ],
  [
    'taskmgr.exe',
    'C:\\Windows\\System32',
    'Task Manager',
    'Microsoft® Windows® Operating System',
    'Task Manager',
  ],
  [
    'powershell.exe',
    'C:\\Windows\\System32\\WindowsPowerShell\\v1.0',
    'Windows PowerShell',
    'Microsoft® Windows® Operating System',
  ],
  [
    'regsvr32.exe',
    'C:\\Windows\\System32',
    'Microsoft(C) Register Server',
    'Microsoft® Windows® Operating System',
  ],
  [
    'wmic.exe',
    'C:\\Windows\\System32\\wbem',
    'WMI Commandline Utility',
    'Microsoft® Windows® Operating System',
  ],
  ['net.exe', 'C:\\Windows\\System32', 'Net Command', 'Microsoft® Windows® Operating System'],
  ['ntdll.dll', 'C:\\Windows\\System32', 'NT Layer DLL', 'Microsoft® Windows® Operating System'],
  [
    'kernel32.dll',
    'C:\\Windows\\SysWOW64',
    'Windows NT BASE API Client DLL',
    'Microsoft® Windows® Operating System',
  ],
  [
    'explorer.exe',
    'C:\\Windows',
    'Windows Explorer',
    'Microsoft® Windows® Operating System',
    'File Explorer',
  ],
  [
    'notepad.exe',
    'C:\\Windows\\System32',
    'Notepad',
    'Microsoft® Windows® Operating System',
    'Untitled - Notepad',
  ],
  ['certutil.exe', 'C:\\Windows\\System32', 'CertUtil.exe', 'Microsoft® Windows® Operating System'],
  [
    'bitsadmin.exe',
    'C:\\Windows\\System32',
    'BITS administration utility',
    'Microsoft® Windows® Operating System',
  ],
  ['conhost.exe', 'C:\\Windows\\System32', 'Console Window Host', 'Microsoft® Windows® Operating System'],
  [
    'winlogon.exe',
    'C:\\Windows\\System32',
    'Windows Logon Application',
    'Microsoft® Windows® Operating System',
  ],
  [
    'advapi32.dll',
    'C:\\Windows\\System32',
    'Advanced Windows 32 Base API',
    'Microsoft® Windows® Operating System',
  ],
  [
    'amsi.dll',
    'C:\\Windows\\System32',
    'Anti-Malware Scan Interface',
    'Microsoft® Windows® Operating System',
  ],
];

describe('pinned file rows', () => {
  for (const [name, folder, description, product, title] of FILES) {
    test(`${folder}\\${name} is "${description}"`, () => {
      const { rows } = lookupSync({
        search: name,
        module: 'file_name',
        filter: [{ field: 'File Path', operator: 'equals', value: `${folder}\\${name}` }],
      });
      assert.equal(rows.length, 1);
      const row = rows[0] as string[];
      assert.equal(row[0]?.toLowerCase(), name);
      assert.ok((row[2] as string).split('##').includes(description), row[2]);
      assert.ok((row[3] as string).split('##').includes(product), row[3]);
      assert.equal(row[4], 'Microsoft Corporation');
      if (title !== undefined) assert.equal(row[5], title);
    });
  }
});
