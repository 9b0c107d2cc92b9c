/**
 * Which event fields carry payloads, one small entry per source. An event matches a source by
 * event id and by provider or channel (so forwarded events match too), case-insensitively.
 * `emit` says whether the field is itself a payload (a service's image path) or only a text
 * to search for encoded content (a command line: the plain text is already in the event).
 */
import type { EvtxEvent } from '../evtx/index.js';
import type { PayloadKind } from './types.js';

export interface FieldSource {
  readonly eventIds: readonly number[];
  /** Lower case. */
  readonly providers: readonly string[];
  /** Lower case. */
  readonly channels: readonly string[];
  /** Event-data names; `#unnamed` is every unnamed Data element (Windows PowerShell's classic log). */
  readonly fields: readonly string[];
  readonly emit: PayloadKind | null;
  /** The event-data name whose value labels the payload (a service or task name). */
  readonly label?: string;
}

const SYSMON = {
  providers: ['microsoft-windows-sysmon'],
  channels: ['microsoft-windows-sysmon/operational'],
};
const SECURITY = { providers: ['microsoft-windows-security-auditing'], channels: ['security'] };
const POWERSHELL = {
  providers: ['microsoft-windows-powershell', 'powershellcore'],
  channels: ['microsoft-windows-powershell/operational', 'powershellcore/operational'],
};
const DEFENDER = {
  providers: ['microsoft-windows-windows defender'],
  channels: ['microsoft-windows-windows defender/operational'],
};

export const FIELD_SOURCES: Readonly<Record<string, FieldSource>> = {
  sysmonProcess: { ...SYSMON, eventIds: [1], fields: ['CommandLine', 'ParentCommandLine'], emit: null },
  securityProcess: { ...SECURITY, eventIds: [4688], fields: ['CommandLine'], emit: null },
  powershellPipeline: { ...POWERSHELL, eventIds: [4103], fields: ['Payload', 'ContextInfo'], emit: null },
  /** Windows PowerShell's classic log: `HostApplication=powershell -enc …` in unnamed Data. */
  powershellClassic: {
    providers: ['powershell'],
    channels: ['windows powershell'],
    eventIds: [400, 403, 600, 800],
    fields: ['#unnamed'],
    emit: null,
  },
  serviceInstalled: {
    providers: ['service control manager'],
    channels: ['system'],
    eventIds: [7045],
    fields: ['ImagePath'],
    emit: 'service-image',
    label: 'ServiceName',
  },
  securityServiceInstalled: {
    ...SECURITY,
    eventIds: [4697],
    fields: ['ServiceFileName'],
    emit: 'service-image',
    label: 'ServiceName',
  },
  scheduledTask: {
    ...SECURITY,
    eventIds: [4698, 4702],
    fields: ['TaskContent', 'TaskContentNew'],
    emit: 'scheduled-task',
    label: 'TaskName',
  },
  wmiConsumer: { ...SYSMON, eventIds: [20], fields: ['Destination'], emit: 'wmi-consumer', label: 'Name' },
  defenderDetection: {
    ...DEFENDER,
    eventIds: [1116, 1117],
    fields: ['Path'],
    emit: 'defender-detection',
    label: 'Threat Name',
  },
};

/** PowerShell script block logging (4104): reassembled by ScriptBlockId before anything else. */
export const SCRIPT_BLOCK_SOURCE = { ...POWERSHELL, eventIds: [4104] } as const;

export function sourceMatches(
  s: { eventIds: readonly number[]; providers: readonly string[]; channels: readonly string[] },
  e: EvtxEvent,
): boolean {
  if (!s.eventIds.includes(e.eventId)) return false;
  return s.providers.includes(e.provider.toLowerCase()) || s.channels.includes(e.channel.toLowerCase());
}

/** A field's value as one text (a string array joined by newlines); null when absent or empty. */
export function fieldText(e: EvtxEvent, field: string): string | null {
  const v = field === '#unnamed' ? e.unnamedData : e.data[field];
  if (v === undefined) return null;
  const text = Array.isArray(v) ? v.join('\n') : v;
  return text === '' ? null : text;
}
