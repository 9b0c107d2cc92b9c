/**
 * Facts: what an event means, extracted once per event by the extractor registry and consumed by
 * the result-type builders. Facts hold copies of the few fields needed, never the event.
 */
import type { Category, Importance } from '../insights/index.js';
import type { Indicator } from './extract/patterns.js';

/** Where a fact came from, for times and traceability. */
export interface FactOrigin {
  readonly computer: string;
  /** Unix ms (NaN when the record has no time). */
  readonly time: number;
  readonly recordId: number;
  /** `Security#4711`: channel and record id. */
  readonly ref: string;
}

/** A process creation (Sysmon 1 or Security 4688), normalised. */
export interface ProcessStart extends FactOrigin {
  readonly kind: 'processStart';
  readonly source: 'sysmon' | 'security';
  readonly pid: number | null;
  /** Lower case, without braces; '' when absent (4688). */
  readonly guid: string;
  readonly image: string;
  readonly commandLine: string;
  readonly user: string;
  readonly parentPid: number | null;
  readonly parentGuid: string;
  /** '' when the event does not say (4688 before Windows 10). */
  readonly parentImage: string;
  readonly originalFileName: string;
  /** Indicators the command line matches (computed once, used by several result types). */
  readonly indicators: readonly Indicator[];
  /** The second record (Sysmon or Security) of a creation already seen: not counted again. */
  readonly twin: boolean;
}

/** A process exit (Sysmon 5 or Security 4689). */
export interface ProcessEnd extends FactOrigin {
  readonly kind: 'processEnd';
  readonly pid: number | null;
  readonly guid: string;
  readonly image: string;
}

export type AuthOutcome = 'success' | 'failure' | 'none';

/** An authentication event: logon, failure, logoff, Kerberos, NTLM, RDP. */
export interface AuthEvent extends FactOrigin {
  readonly kind: 'auth';
  readonly eventId: number;
  readonly user: string;
  /** `3 (Network)`, `Kerberos TGT`, `RDP session`, … */
  readonly logonType: string;
  readonly address: string;
  readonly workstation: string;
  readonly outcome: AuthOutcome;
  /** Failure status text (`0xc000006a bad password`), '' otherwise. */
  readonly reason: string;
  /** The remote-access service this event shows, if any (for the network sources table). */
  readonly remote: 'RDP' | 'Network logon' | null;
}

/** Explicit-credential use (4648): who used whose credentials, towards which server. */
export interface ExplicitCredentials extends FactOrigin {
  readonly kind: 'explicit';
  readonly subject: string;
  readonly target: string;
  readonly server: string;
  readonly process: string;
  readonly address: string;
}

export interface Connection extends FactOrigin {
  readonly kind: 'connection';
  readonly image: string;
  readonly user: string;
  readonly protocol: string;
  readonly direction: 'outbound' | 'inbound' | '';
  readonly sourceAddress: string;
  readonly destAddress: string;
  readonly destPort: string;
  readonly destHost: string;
}

export interface DnsQuery extends FactOrigin {
  readonly kind: 'dns';
  readonly query: string;
  readonly image: string;
  readonly results: string;
  readonly status: string;
}

/** An inbound access over a file share (5140/5145). */
export interface ShareAccess extends FactOrigin {
  readonly kind: 'share';
  readonly address: string;
  readonly user: string;
  readonly share: string;
}

export const MECHANISMS = [
  'Service',
  'Scheduled Task',
  'Registry Run Key',
  'Winlogon',
  'Service Registry',
  'Image File Execution Options',
  'COM Hijack',
  'Other Autostart',
  'WMI Subscription',
  'Startup Folder',
  'Account',
  'BITS Job',
] as const;
export type Mechanism = (typeof MECHANISMS)[number];

/** A persistence change: a service, task, autostart key, WMI subscription, startup file, account. */
export interface PersistenceChange extends FactOrigin {
  readonly kind: 'persistence';
  readonly mechanism: Mechanism;
  readonly action: string;
  readonly name: string;
  readonly detail: string;
  readonly user: string;
}

/** A key event for the timeline, already judged: name, category, importance, one line. */
export interface Notable extends FactOrigin {
  readonly kind: 'notable';
  readonly name: string;
  /** Separates timeline entries of one kind (a service name, a threat name); '' for none. */
  readonly group: string;
  readonly category: Category;
  readonly importance: Importance;
  /** One line about this event; null asks the analyzer for the event's Windows message. */
  readonly description: string | null;
}

export type Fact =
  | ProcessStart
  | ProcessEnd
  | AuthEvent
  | ExplicitCredentials
  | Connection
  | DnsQuery
  | ShareAccess
  | PersistenceChange
  | Notable;

export type FactKind = Fact['kind'];
export type Emit = (fact: Fact) => void;
