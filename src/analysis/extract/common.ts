/** Helpers every extractor uses: a fact's origin, provider names, GUIDs, status codes. */
import type { EvtxEvent } from '../../evtx/index.js';
import type { FactOrigin } from '../facts.js';
import { recordRef } from '../text.js';

export const SECURITY = 'Microsoft-Windows-Security-Auditing';
export const SYSMON = 'Microsoft-Windows-Sysmon';
export const EVENTLOG = 'Microsoft-Windows-Eventlog';
export const SCM = 'Service Control Manager';
export const TASK_SCHEDULER = 'Microsoft-Windows-TaskScheduler';
export const WMI_ACTIVITY = 'Microsoft-Windows-WMI-Activity';
export const DEFENDER = 'Microsoft-Windows-Windows Defender';
export const POWERSHELL = 'Microsoft-Windows-PowerShell';
export const POWERSHELL_CLASSIC = 'PowerShell';
export const RDP_LOCAL_SESSION = 'Microsoft-Windows-TerminalServices-LocalSessionManager';
export const RDP_REMOTE_CONNECTION = 'Microsoft-Windows-TerminalServices-RemoteConnectionManager';
export const BITS = 'Microsoft-Windows-Bits-Client';
export const FIREWALL = 'Microsoft-Windows-Windows Firewall With Advanced Security';

export const origin = (e: EvtxEvent): FactOrigin => ({
  computer: e.computer,
  time: e.timestamp,
  recordId: e.recordId,
  ref: recordRef(e),
});

/** `{5F6B1C2A-…}` → `5f6b1c2a-…`; '' stays ''. */
export const normalizeGuid = (g: string): string =>
  g
    .trim()
    .replace(/^\{|\}$/g, '')
    .toLowerCase();

/** NTSTATUS and Kerberos result codes seen in failed authentications. */
const STATUS_TEXT: Readonly<Record<string, string>> = {
  '0xc000006a': 'bad password',
  '0xc0000064': 'unknown user',
  '0xc000006d': 'bad user name or password',
  '0xc000006e': 'account restriction',
  '0xc000006f': 'outside logon hours',
  '0xc0000070': 'workstation restriction',
  '0xc0000071': 'password expired',
  '0xc0000072': 'account disabled',
  '0xc0000133': 'clock skew',
  '0xc000015b': 'logon type not granted',
  '0xc0000193': 'account expired',
  '0xc0000224': 'password must change',
  '0xc0000234': 'account locked out',
  '0xc0000413': 'authentication firewall',
  '0x6': 'unknown principal',
  '0x12': 'account disabled, expired or locked',
  '0x17': 'password expired',
  '0x18': 'bad password',
  '0x25': 'clock skew',
};

/** `0xC000006A` → `0xc000006a bad password` (an unknown code stays as written). */
export function statusText(code: string): string {
  const c = code.trim().toLowerCase();
  const text = STATUS_TEXT[c];
  return text === undefined ? c : `${c} ${text}`;
}

/** True for the success codes (`0x0`, `0`) Windows writes in Status fields. */
export const isSuccessStatus = (code: string): boolean => /^(0x)?0+$/i.test(code.trim());

const LOGON_TYPES: Readonly<Record<string, string>> = {
  '0': 'System',
  '2': 'Interactive',
  '3': 'Network',
  '4': 'Batch',
  '5': 'Service',
  '7': 'Unlock',
  '8': 'NetworkCleartext',
  '9': 'NewCredentials',
  '10': 'RemoteInteractive',
  '11': 'CachedInteractive',
  '12': 'CachedRemoteInteractive',
  '13': 'CachedUnlock',
};

/** `3` → `3 (Network)`. */
export function logonTypeLabel(t: string): string {
  const name = LOGON_TYPES[t.trim()];
  return name === undefined ? t.trim() || '-' : `${t.trim()} (${name})`;
}

export const isLoopback = (a: string): boolean => a === '127.0.0.1' || a === '::1' || a === 'localhost';
