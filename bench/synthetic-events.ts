/**
 * The search bench's events at scale (`bench/search.ts`): plausible Security, Sysmon, System and
 * PowerShell events (a user, a process, a command line) with a few rare markers and Sigma titles
 * to search for, made from a seeded generator so that every run indexes the same events.
 */
import type { EvtxEvent } from '../src/evtx/index.js';

const PROVIDERS = [
  ['Microsoft-Windows-Security-Auditing', 'Security', [4624, 4625, 4634, 4672, 4688, 4689, 4720, 4768, 4769]],
  ['Microsoft-Windows-Sysmon', 'Microsoft-Windows-Sysmon/Operational', [1, 3, 5, 7, 10, 11, 13, 22]],
  ['Service Control Manager', 'System', [7036, 7040, 7045]],
  ['Microsoft-Windows-PowerShell', 'Microsoft-Windows-PowerShell/Operational', [4103, 4104]],
] as const;
const USERS = ['alice', 'bob', 'carol', 'dave', 'SYSTEM', 'LOCAL SERVICE', 'svc_sql', 'admin'];
const IMAGES = [
  'svchost.exe',
  'powershell.exe',
  'cmd.exe',
  'explorer.exe',
  'chrome.exe',
  'rundll32.exe',
  'wmiprvse.exe',
];
const WORDS = [
  '-NoProfile',
  '-enc',
  'SQBFAFgA',
  '/c',
  'whoami',
  'net',
  'user',
  '/domain',
  '-k',
  'netsvcs',
  '--type=renderer',
];

/** A plausible event: a user, a process, a command line; a few rare markers to search for. */
export function syntheticEvent(
  r: () => number,
  i: number,
  start: number,
): { e: EvtxEvent; titles: string[] } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const [provider, channel, ids] = pick(PROVIDERS);
  const ts = start + i * 250 + Math.floor(r() * 2000);
  const image = `C:\\Windows\\System32\\${pick(IMAGES)}`;
  const rare = r() < 0.0001;
  const command = rare
    ? `${image} Invoke-Mimikatz -DumpCreds`
    : `${image} ${pick(WORDS)} ${pick(WORDS)} ${Math.floor(r() * 1e6)}`;
  const data = {
    SubjectUserName: r() < 0.00002 ? 'svc_rare' : pick(USERS),
    TargetUserName: pick(USERS),
    ProcessId: `0x${Math.floor(r() * 0xffff).toString(16)}`,
    Image: image,
    CommandLine: command,
    IpAddress: `10.${Math.floor(r() * 4)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`,
  };
  const titles = rare ? ['Mimikatz Use'] : r() < 0.005 ? ['Suspicious Encoded PowerShell'] : [];
  const e: EvtxEvent = {
    recordId: i + 1,
    timestamp: ts,
    timestampText: new Date(ts).toISOString(),
    eventId: pick(ids),
    qualifiers: null,
    version: 0,
    level: 4,
    task: 0,
    opcode: 0,
    keywords: '0x8020000000000000',
    provider,
    providerGuid: null,
    channel,
    computer: `WS-${String(Math.floor(r() * 200)).padStart(4, '0')}.corp.example`,
    userSid: null,
    processId: 4,
    threadId: 8,
    data,
    unnamedData: [],
    userDataName: null,
  };
  return { e, titles };
}
