/**
 * What a registry path means: an autostart location (persistence) or a security setting an
 * attacker weakens (defence evasion). Paths come from Sysmon 12/13/14 `TargetObject`.
 */
import type { Mechanism } from '../facts.js';

const AUTOSTART: readonly [RegExp, Mechanism][] = [
  [
    /\\Microsoft\\Windows\\CurrentVersion\\(Policies\\Explorer\\)?(Run|RunOnce|RunOnceEx|RunServices|RunServicesOnce)(\\|$)/i,
    'Registry Run Key',
  ],
  [/\\SAM\\Domains\\Account\\Users\\/i, 'Account'],
  [/\\Winlogon\\(Shell|Userinit|Notify|Taskman|AppSetup|VmApplet|GinaDLL)(\\|$)/i, 'Winlogon'],
  [
    /\\(CurrentControlSet|ControlSet\d{3})\\Services\\[^\\]+(\\Parameters)?\\(ImagePath|ServiceDll|FailureCommand)$/i,
    'Service Registry',
  ],
  [
    /\\Image File Execution Options\\[^\\]+\\(Debugger|GlobalFlag|VerifierDlls)$/i,
    'Image File Execution Options',
  ],
  [/\\SilentProcessExit\\[^\\]+\\(MonitorProcess|ReportingMode)$/i, 'Image File Execution Options'],
  [
    /^(HKU|HKCU|HKEY_USERS|HKEY_CURRENT_USER)\\.*Classes\\CLSID\\[^\\]+\\(InprocServer32|LocalServer32|TreatAs|ScriptletURL)(\\|$)/i,
    'COM Hijack',
  ],
  [
    /\\(AppInit_DLLs|Session Manager\\(BootExecute|SetupExecute)|Control\\Lsa\\(Security Packages|Authentication Packages|Notification Packages)|Explorer\\(User )?Shell Folders\\(Common )?Startup|Environment\\UserInitMprLogonScript|Microsoft\\Netsh\\|Print\\Monitors\\[^\\]+\\Driver|Active Setup\\Installed Components\\[^\\]+\\StubPath|Terminal Server\\WinStations\\RDP-Tcp\\InitialProgram|Group Policy\\Scripts\\|IEAK\\GroupPolicy\\PendingGPOs\\)/i,
    'Other Autostart',
  ],
];

/** The autostart mechanism a registry path belongs to, or null. */
export function autostartMechanism(targetObject: string): Mechanism | null {
  for (const [pattern, mechanism] of AUTOSTART) if (pattern.test(targetObject)) return mechanism;
  return null;
}

/** A service key created outright (`…\Services\Name`), which registers a service without 7045. */
export const isServiceKey = (targetObject: string): boolean =>
  /\\(CurrentControlSet|ControlSet\d{3})\\Services\\[^\\]+$/i.test(targetObject);

interface WeakeningRule {
  readonly label: string;
  readonly path: RegExp;
  /** True when the new value weakens the setting (Sysmon `Details`, e.g. `DWORD (0x00000000)`). */
  readonly weakens: (details: string, eventType: string) => boolean;
}

/** `DWORD (0x00000001)` → 1; null when not a DWORD. */
export function dwordOf(details: string): number | null {
  const m = /DWORD \((0x[0-9a-f]+)\)/i.exec(details);
  return m === null ? null : Number.parseInt(m[1]!.slice(2), 16);
}

const is = (v: number) => (d: string) => dwordOf(d) === v;
const deletedOr = (v: number) => (d: string, type: string) => /Delete/i.test(type) || dwordOf(d) === v;

const WEAKENING: readonly WeakeningRule[] = [
  { label: 'UAC disabled', path: /\\Policies\\System\\EnableLUA$/i, weakens: is(0) },
  { label: 'UAC prompt disabled', path: /\\Policies\\System\\ConsentPromptBehaviorAdmin$/i, weakens: is(0) },
  {
    label: 'Defender disabled',
    path: /\\Windows Defender\\(Real-Time Protection\\)?(DisableAntiSpyware|DisableAntiVirus|DisableRealtimeMonitoring|DisableBehaviorMonitoring|DisableIOAVProtection|DisableOnAccessProtection)$/i,
    weakens: is(1),
  },
  {
    label: 'Defender exclusion added',
    path: /\\Windows Defender\\Exclusions\\/i,
    weakens: (_d, t) => !/Delete/i.test(t),
  },
  {
    label: 'PowerShell logging disabled',
    path: /\\PowerShell\\(ScriptBlockLogging\\EnableScriptBlockLogging|ModuleLogging\\EnableModuleLogging|Transcription\\EnableTranscripting)$/i,
    weakens: deletedOr(0),
  },
  {
    label: 'PowerShell execution policy weakened',
    path: /\\PowerShell\\(1\\ShellIds\\Microsoft\.PowerShell\\)?ExecutionPolicy$/i,
    weakens: (d) => /bypass|unrestricted/i.test(d),
  },
  { label: 'WDigest cleartext credentials enabled', path: /\\WDigest\\UseLogonCredential$/i, weakens: is(1) },
  { label: 'LSA protection disabled', path: /\\Control\\Lsa\\RunAsPPL$/i, weakens: is(0) },
  {
    label: 'Restricted Admin mode enabled',
    path: /\\Control\\Lsa\\DisableRestrictedAdmin$/i,
    weakens: is(0),
  },
  { label: 'Firewall disabled', path: /\\FirewallPolicy\\[^\\]+\\EnableFirewall$/i, weakens: is(0) },
  { label: 'RDP enabled', path: /\\Terminal Server\\fDenyTSConnections$/i, weakens: is(0) },
  { label: 'Office VBA object model access enabled', path: /\\Security\\AccessVBOM$/i, weakens: is(1) },
];

/** The label of the security setting this registry change weakens, or null. */
export function weakenedSetting(targetObject: string, details: string, eventType: string): string | null {
  for (const r of WEAKENING) if (r.path.test(targetObject) && r.weakens(details, eventType)) return r.label;
  return null;
}
