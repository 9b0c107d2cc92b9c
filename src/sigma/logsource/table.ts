/**
 * The Windows logsource table of sigma-semantics.md §3.4 as data: which channels, event ids
 * and extra conditions each Sigma category and service stands for. The code that reads it
 * lives in `map-rule.ts` (category and service to log sources) and `selector.ts` (channels).
 *
 * Channel names are compared case-insensitively; a `prefix` channel matches every channel
 * starting with it (the real Hyper-V worker log is `…-Worker-Admin`).
 */
import type { FieldMapName } from './fields.js';

export interface ChannelRef {
  readonly name: string;
  readonly prefix?: boolean;
}

/** Events collected by WEF sit in `ForwardedEvents`; there the provider stands in for the channel. */
export interface ProviderRef {
  readonly name: string;
  /** Narrows the row's event ids for this provider (Eventlog writes Security's 1102). */
  readonly eventIds?: readonly number[];
}

export interface SourceRow {
  /** Stable name of the variant this row yields (`sysmon`, `security`, `powershell`…). */
  readonly variant: string;
  /** The `service:` a rendered variant names. */
  readonly service: string;
  readonly channels: readonly ChannelRef[];
  /** Absent: any event id of the channels. */
  readonly eventIds?: readonly number[];
  /** Further conditions: each field must equal one of the values (thor.yml's registry rows). */
  readonly where?: Readonly<Record<string, readonly string[]>>;
  /** Field renames and value conversions from the rule's (Sysmon) names to this source's. */
  readonly fields?: FieldMapName;
  /** Provider fallback for `ForwardedEvents` (only where §3.4's forwarded table names one). */
  readonly providers?: readonly ProviderRef[];
  /** A row that only exists when its option is on (the Security 4688 variant). */
  readonly option?: 'security4688';
}

export const SYSMON_CHANNEL = 'Microsoft-Windows-Sysmon/Operational';
export const FORWARDED_CHANNEL = 'ForwardedEvents';

const SYSMON_PROVIDERS: readonly ProviderRef[] = [{ name: 'Microsoft-Windows-Sysmon' }];
const POWERSHELL_CHANNELS: readonly ChannelRef[] = [
  { name: 'Microsoft-Windows-PowerShell/Operational' },
  { name: 'PowerShellCore/Operational' },
];
const POWERSHELL_PROVIDERS: readonly ProviderRef[] = [
  { name: 'Microsoft-Windows-PowerShell' },
  { name: 'PowerShellCore' },
];
const SECURITY_PROVIDERS: readonly ProviderRef[] = [
  { name: 'Microsoft-Windows-Security-Auditing' },
  { name: 'Microsoft-Windows-Eventlog', eventIds: [1102] },
];
const DEFENDER_CHANNEL = 'Microsoft-Windows-Windows Defender/Operational';
const DEFENDER_PROVIDERS: readonly ProviderRef[] = [{ name: 'Microsoft-Windows-Windows Defender' }];

const sysmon = (eventIds: readonly number[], where?: SourceRow['where']): readonly SourceRow[] => [
  {
    variant: 'sysmon',
    service: 'sysmon',
    channels: [{ name: SYSMON_CHANNEL }],
    eventIds,
    providers: SYSMON_PROVIDERS,
    ...(where === undefined ? {} : { where }),
  },
];

const powershell = (eventIds: readonly number[]): readonly SourceRow[] => [
  {
    variant: 'powershell',
    service: 'powershell',
    channels: POWERSHELL_CHANNELS,
    eventIds,
    providers: POWERSHELL_PROVIDERS,
  },
];

const powershellClassic = (eventIds: readonly number[]): readonly SourceRow[] => [
  {
    variant: 'powershell-classic',
    service: 'powershell-classic',
    channels: [{ name: 'Windows PowerShell' }],
    eventIds,
  },
];

/** §3.4 "Categories"; every row is Sysmon unless it says otherwise. */
export const CATEGORIES: Readonly<Record<string, readonly SourceRow[]>> = {
  process_creation: [
    ...sysmon([1]),
    {
      variant: 'security',
      service: 'security',
      channels: [{ name: 'Security' }],
      eventIds: [4688],
      fields: 'security4688',
      providers: SECURITY_PROVIDERS.slice(0, 1),
      option: 'security4688',
    },
  ],
  file_change: sysmon([2]),
  network_connection: sysmon([3]),
  sysmon_status: sysmon([4, 16]),
  process_termination: sysmon([5]),
  driver_load: sysmon([6]),
  image_load: sysmon([7]),
  create_remote_thread: sysmon([8]),
  raw_access_thread: sysmon([9]),
  process_access: sysmon([10]),
  file_event: sysmon([11]),
  registry_event: sysmon([12, 13, 14]),
  // thor.yml (SigmaHQ CI) narrows EID 12 by EventType; pySigma, Chainsaw and Hayabusa do not.
  registry_add: sysmon([12], { EventType: ['CreateKey'] }),
  registry_delete: sysmon([12], { EventType: ['DeleteKey', 'DeleteValue'] }),
  registry_set: sysmon([13]),
  registry_rename: sysmon([14]),
  create_stream_hash: sysmon([15]),
  pipe_created: sysmon([17, 18]),
  wmi_event: sysmon([19, 20, 21]),
  dns_query: sysmon([22]),
  // Taxonomy, thor.yml and pySigma: 23 only (Hayabusa adds 26, which is file_delete_detected).
  file_delete: sysmon([23]),
  clipboard_capture: sysmon([24]),
  process_tampering: sysmon([25]),
  file_delete_detected: sysmon([26]),
  file_block_executable: sysmon([27]),
  file_block_shredding: sysmon([28]),
  file_executable_detected: sysmon([29]),
  sysmon_error: sysmon([255]),
  ps_module: powershell([4103]),
  ps_script: powershell([4104]),
  ps_classic_start: powershellClassic([400]),
  ps_classic_provider_start: powershellClassic([600]),
  ps_classic_script: powershellClassic([800]),
  antivirus: [
    {
      variant: 'windefend',
      service: 'windefend',
      channels: [{ name: DEFENDER_CHANNEL }],
      // Defender events that carry 'Threat Name' or 'Path' (thor.yml).
      eventIds: [1006, 1007, 1008, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1115, 1116],
      fields: 'defender',
      providers: DEFENDER_PROVIDERS,
    },
  ],
};

/** Other names rules use for the same category (thor.yml vs the taxonomy). */
export const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  clipboard_change: 'clipboard_capture',
  file_block: 'file_block_executable',
};

/** Windows categories with no EVTX source: Kernel-File ETW only. */
export const UNSUPPORTED_CATEGORIES: Readonly<Record<string, string>> = {
  file_access: 'ETW provider Microsoft-Windows-Kernel-File only, never written to an event log',
  file_rename: 'ETW provider Microsoft-Windows-Kernel-File only, never written to an event log',
};

interface ServiceDef {
  readonly channels: readonly (string | ChannelRef)[];
  readonly providers?: readonly ProviderRef[];
}

/** §3.4 "Services": union of the taxonomy, pySigma `common.py`, thor.yml and Hayabusa's converter. */
const SERVICE_DEFS: Readonly<Record<string, ServiceDef>> = {
  security: { channels: ['Security'], providers: SECURITY_PROVIDERS },
  system: { channels: ['System'] },
  application: { channels: ['Application'] },
  sysmon: { channels: [SYSMON_CHANNEL], providers: SYSMON_PROVIDERS },
  powershell: { channels: POWERSHELL_CHANNELS, providers: POWERSHELL_PROVIDERS },
  'powershell-classic': { channels: ['Windows PowerShell'] },
  taskscheduler: { channels: ['Microsoft-Windows-TaskScheduler/Operational'] },
  wmi: { channels: ['Microsoft-Windows-WMI-Activity/Operational'] },
  windefend: { channels: [DEFENDER_CHANNEL], providers: DEFENDER_PROVIDERS },
  'codeintegrity-operational': { channels: ['Microsoft-Windows-CodeIntegrity/Operational'] },
  'firewall-as': { channels: ['Microsoft-Windows-Windows Firewall With Advanced Security/Firewall'] },
  applocker: {
    channels: [
      'Microsoft-Windows-AppLocker/MSI and Script',
      'Microsoft-Windows-AppLocker/EXE and DLL',
      'Microsoft-Windows-AppLocker/Packaged app-Deployment',
      'Microsoft-Windows-AppLocker/Packaged app-Execution',
    ],
  },
  'bits-client': { channels: ['Microsoft-Windows-Bits-Client/Operational'] },
  'dns-client': { channels: ['Microsoft-Windows-DNS Client Events/Operational'] },
  'dns-server': { channels: ['DNS Server'] },
  // The taxonomy writes DNS-Server; real logs (a corpus sample's Channel) write DNSServer.
  'dns-server-analytic': {
    channels: ['Microsoft-Windows-DNS-Server/Analytical', 'Microsoft-Windows-DNSServer/Analytical'],
  },
  'dns-server-audit': {
    channels: ['Microsoft-Windows-DNS-Server/Audit', 'Microsoft-Windows-DNSServer/Audit'],
  },
  'driver-framework': { channels: ['Microsoft-Windows-DriverFrameworks-UserMode/Operational'] },
  dhcp: { channels: ['Microsoft-Windows-DHCP-Server/Operational'] },
  ntlm: { channels: ['Microsoft-Windows-NTLM/Operational'] },
  'msexchange-management': { channels: ['MSExchange Management'] },
  'printservice-admin': { channels: ['Microsoft-Windows-PrintService/Admin'] },
  'printservice-operational': { channels: ['Microsoft-Windows-PrintService/Operational'] },
  'smbclient-security': { channels: ['Microsoft-Windows-SmbClient/Security'] },
  'smbclient-connectivity': { channels: ['Microsoft-Windows-SmbClient/Connectivity'] },
  'smbserver-connectivity': { channels: ['Microsoft-Windows-SMBServer/Connectivity'] },
  'terminalservices-localsessionmanager': {
    channels: ['Microsoft-Windows-TerminalServices-LocalSessionManager/Operational'],
  },
  'security-mitigations': {
    channels: [
      'Microsoft-Windows-Security-Mitigations/Kernel Mode',
      'Microsoft-Windows-Security-Mitigations/User Mode',
    ],
  },
  'diagnosis-scripted': { channels: ['Microsoft-Windows-Diagnosis-Scripted/Operational'] },
  'shell-core': { channels: ['Microsoft-Windows-Shell-Core/Operational'] },
  openssh: { channels: ['OpenSSH/Operational'] },
  ldap: { channels: ['Microsoft-Windows-LDAP-Client/Debug'] },
  bitlocker: { channels: ['Microsoft-Windows-BitLocker/BitLocker Management'] },
  vhdmp: { channels: ['Microsoft-Windows-VHDMP/Operational'] },
  'appxdeployment-server': { channels: ['Microsoft-Windows-AppXDeploymentServer/Operational'] },
  'appxpackaging-om': { channels: ['Microsoft-Windows-AppxPackaging/Operational'] },
  'appmodel-runtime': { channels: ['Microsoft-Windows-AppModel-Runtime/Admin'] },
  'lsa-server': { channels: ['Microsoft-Windows-LSA/Operational'] },
  capi2: { channels: ['Microsoft-Windows-CAPI2/Operational'] },
  'certificateservicesclient-lifecycle-system': {
    channels: ['Microsoft-Windows-CertificateServicesClient-Lifecycle-System/Operational'],
  },
  'kernel-shimengine': {
    channels: [
      'Microsoft-Windows-Kernel-ShimEngine/Operational',
      'Microsoft-Windows-Kernel-ShimEngine/Diagnostic',
    ],
  },
  'application-experience': {
    channels: [
      'Microsoft-Windows-Application-Experience/Program-Telemetry',
      'Microsoft-Windows-Application-Experience/Program-Compatibility-Assistant',
    ],
  },
  ntfs: { channels: ['Microsoft-Windows-Ntfs/Operational'] },
  'hyper-v-worker': { channels: [{ name: 'Microsoft-Windows-Hyper-V-Worker', prefix: true }] },
  'kernel-event-tracing': { channels: [{ name: 'Microsoft-Windows-Kernel-EventTracing', prefix: true }] },
  sense: { channels: ['Microsoft-Windows-SENSE/Operational'] },
  'servicebus-client': {
    channels: ['Microsoft-ServiceBus-Client/Operational', 'Microsoft-ServiceBus-Client/Admin'],
  },
  'iis-configuration': { channels: ['Microsoft-IIS-Configuration/Operational'] },
};

/** Old or alternative service names. */
export const SERVICE_ALIASES: Readonly<Record<string, string>> = {
  ldap_debug: 'ldap',
  'microsoft-servicebus-client': 'servicebus-client',
};

export const SERVICES: Readonly<Record<string, SourceRow>> = Object.fromEntries(
  Object.entries(SERVICE_DEFS).map(([service, def]) => [
    service,
    {
      variant: service,
      service,
      channels: def.channels.map((c) => (typeof c === 'string' ? { name: c } : c)),
      ...(def.providers === undefined ? {} : { providers: def.providers }),
    } satisfies SourceRow,
  ]),
);

/**
 * Generic log sources of the taxonomy that are not Windows event logs: a rule naming one is
 * "not applicable", not "unknown", even without a product.
 */
export const NOT_EVENT_LOG_CATEGORIES: ReadonlySet<string> = new Set([
  'proxy',
  'webserver',
  'firewall',
  'dns',
  'database',
  'application',
  'appliance',
  'logfile',
]);

export const NOT_EVENT_LOG_SERVICES: ReadonlySet<string> = new Set([
  'apache',
  'nginx',
  'netflow',
  'syslog',
  'auth',
]);
