/**
 * Key events that stand on their own: logs cleared, auditing or the event log service turned off,
 * Defender detections and tampering, suspicious PowerShell, firewall and security settings
 * weakened. Each becomes a timeline notable.
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { Category, Importance } from '../../insights/index.js';
import { resolveParameters } from '../../messages/index.js';
import type { Emit, Notable } from '../facts.js';
import { maxImportance } from '../importance.js';
import { account, field, oneLine } from '../text.js';
import {
  DEFENDER,
  EVENTLOG,
  FIREWALL,
  origin,
  POWERSHELL,
  POWERSHELL_CLASSIC,
  SCM,
  SECURITY,
  SYSMON,
} from './common.js';
import { matchIndicators, POWERSHELL_INDICATORS } from './patterns.js';
import type { ExtractorTable } from './registry.js';
import { weakenedSetting } from './registry-keys.js';

type NotableFields = Pick<Notable, 'name' | 'group' | 'importance' | 'description'> & { category?: Category };

const note = (e: EvtxEvent, emit: Emit, n: NotableFields): void =>
  emit({ kind: 'notable', ...origin(e), category: 'General', ...n });

const subject = (e: EvtxEvent): string => account(field(e, 'SubjectDomainName'), field(e, 'SubjectUserName'));

function logCleared(e: EvtxEvent, emit: Emit): void {
  const channel = e.eventId === 1102 ? 'Security' : field(e, 'Channel') || e.channel;
  note(e, emit, {
    name: 'Log cleared',
    group: channel.toLowerCase(),
    importance: 'High',
    description: `${channel} log cleared by ${subject(e) || 'unknown user'}`,
  });
}

/** Audit subcategories by GUID (auditpol /list /subcategory:* /v), for readable 4719 entries. */
const AUDIT_SUBCATEGORIES: Readonly<Record<string, string>> = {
  '0cce9210': 'Security State Change',
  '0cce9211': 'Security System Extension',
  '0cce9212': 'System Integrity',
  '0cce9215': 'Logon',
  '0cce9216': 'Logoff',
  '0cce921b': 'Special Logon',
  '0cce9224': 'File Share',
  '0cce9226': 'Filtering Platform Connection',
  '0cce9227': 'Other Object Access Events',
  '0cce9228': 'Sensitive Privilege Use',
  '0cce922b': 'Process Creation',
  '0cce922f': 'Audit Policy Change',
  '0cce9235': 'User Account Management',
  '0cce9237': 'Security Group Management',
  '0cce923b': 'Directory Service Access',
  '0cce923f': 'Credential Validation',
  '0cce9240': 'Kerberos Service Ticket Operations',
  '0cce9242': 'Kerberos Authentication Service',
  '0cce9244': 'Detailed File Share',
};

function auditPolicy(e: EvtxEvent, emit: Emit): void {
  const guid = field(e, 'SubcategoryGuid').replace(/[{}]/g, '').toLowerCase();
  const sub = AUDIT_SUBCATEGORIES[guid.slice(0, 8)] ?? (guid || 'unknown subcategory');
  const changes = oneLine(resolveParameters(field(e, 'AuditPolicyChanges')).replace(/,\s*/g, ', '), 120);
  note(e, emit, {
    name: 'Audit policy changed',
    group: '',
    importance: /removed/i.test(changes) ? 'High' : 'Medium',
    description: `${sub}: ${changes} by ${subject(e) || 'unknown user'}`,
  });
}

/** 7036/7040 name the Windows Event Log service in param1 (display name) or param4 (key name). */
function eventLogService(e: EvtxEvent, emit: Emit): void {
  const isEventLog =
    /^(windows )?event ?log$/i.test(field(e, 'param1').trim()) || /^eventlog$/i.test(field(e, 'param4'));
  if (!isEventLog) return;
  if (e.eventId === 7036 && /stopped/i.test(field(e, 'param2')))
    note(e, emit, {
      name: 'Event log service stopped',
      group: '',
      importance: 'High',
      description: 'The Windows Event Log service entered the stopped state',
    });
  if (e.eventId === 7040 && /disabled/i.test(field(e, 'param3')))
    note(e, emit, {
      name: 'Event log service disabled',
      group: '',
      importance: 'High',
      description: `Windows Event Log start type changed from ${field(e, 'param2')} to ${field(e, 'param3')}`,
    });
}

function defender(name: string, importance: Importance) {
  return (e: EvtxEvent, emit: Emit): void => {
    const threat = field(e, 'Threat Name');
    const path = oneLine(field(e, 'Path'), 160);
    // Older Defender builds write the action as an unresolved parameter (`%%887`): left out.
    const action = /^%%\d+$/.test(field(e, 'Action Name').trim()) ? '' : field(e, 'Action Name');
    const detail = threat
      ? `${threat} (${field(e, 'Severity Name') || 'unknown severity'})${path ? ` in ${path}` : ''}${action && action !== 'Not Applicable' ? `, action ${action}` : ''}`
      : oneLine(`${field(e, 'Old Value')} → ${field(e, 'New Value')}`, 300);
    const exclusion = /\\Exclusions\\/i.test(`${field(e, 'Old Value')}${field(e, 'New Value')}`);
    note(e, emit, {
      name: exclusion ? 'Defender exclusion changed' : name,
      group: threat.toLowerCase(),
      importance: exclusion ? 'High' : importance,
      description: detail,
    });
  };
}

/** Suspicious script text: the most severe indicator names the entry, all are listed. */
function scriptIndicators(e: EvtxEvent, emit: Emit, text: string): void {
  const found = matchIndicators(text, POWERSHELL_INDICATORS);
  if (found.length === 0) return;
  const importance = found.reduce<Importance>((m, i) => maxImportance(m, i.importance), 'Informational');
  const first = found.find((i) => i.importance === importance)!;
  const at = Math.max(0, text.search(first.pattern) - 40);
  note(e, emit, {
    name: 'Suspicious PowerShell',
    group: first.label,
    category: 'Process',
    importance,
    description: `${found.map((i) => i.label).join(', ')}: ${oneLine(text.slice(at, at + 200), 160)}`,
  });
}

/** Classic PowerShell 400/800 carry `Name=value` lines in their unnamed data. */
const classicText = (e: EvtxEvent): string => e.unnamedData.join('\n');

function engineStarted(e: EvtxEvent, emit: Emit): void {
  const text = classicText(e);
  const version = /EngineVersion=(\d+)[\d.]*/.exec(text);
  if (version !== null && Number(version[1]) <= 2) {
    const host = /HostApplication=([^\r\n]*)/.exec(text)?.[1] ?? '';
    note(e, emit, {
      name: 'PowerShell downgrade',
      group: '',
      category: 'Process',
      importance: 'High',
      description: `PowerShell engine ${version[0].slice('EngineVersion='.length)} started${host ? `: ${oneLine(host, 200)}` : ''}`,
    });
  }
  scriptIndicators(e, emit, /HostApplication=([^\r\n]*)/.exec(text)?.[1] ?? '');
}

function firewallSetting(e: EvtxEvent, emit: Emit): void {
  const setting =
    e.eventId === 4950
      ? field(e, 'SettingType')
      : field(e, 'SettingType') === '1'
        ? 'Enable Windows Firewall'
        : '';
  const value = e.eventId === 4950 ? field(e, 'SettingValue') : field(e, 'SettingValueString');
  if (!/enable windows firewall/i.test(setting) || !/^no$/i.test(value.trim())) return;
  const profile = e.eventId === 4950 ? field(e, 'ProfileChanged') : `profile mask ${field(e, 'Profiles')}`;
  note(e, emit, {
    name: 'Firewall disabled',
    group: profile.toLowerCase(),
    importance: 'High',
    description: `Windows Firewall turned off (${profile})`,
  });
}

function registrySetting(e: EvtxEvent, emit: Emit): void {
  const key = field(e, 'TargetObject');
  const label = weakenedSetting(key, field(e, 'Details'), field(e, 'EventType'));
  if (label === null) return;
  note(e, emit, {
    name: label,
    group: '',
    importance: 'High',
    description: oneLine(
      `${field(e, 'EventType')} ${key} ${field(e, 'Details')} by ${field(e, 'Image')}`,
      400,
    ),
  });
}

export const NOTABLE_EXTRACTORS: ExtractorTable = {
  [EVENTLOG]: { 104: logCleared, 1102: logCleared },
  [SECURITY]: { 4719: auditPolicy, 4950: firewallSetting },
  [SCM]: { 7036: eventLogService, 7040: eventLogService },
  [DEFENDER]: {
    1006: defender('Defender detection', 'High'),
    1015: defender('Defender detection', 'High'),
    1116: defender('Defender detection', 'High'),
    1007: defender('Defender action taken', 'High'),
    1117: defender('Defender action taken', 'High'),
    1008: defender('Defender action failed', 'Critical'),
    1118: defender('Defender action failed', 'Critical'),
    1119: defender('Defender action failed', 'Critical'),
    5001: defender('Defender real-time protection disabled', 'High'),
    5007: defender('Defender configuration changed', 'Medium'),
    5010: defender('Defender scanning disabled', 'High'),
    5012: defender('Defender scanning disabled', 'High'),
  },
  [POWERSHELL]: {
    4104: (e, emit) => scriptIndicators(e, emit, field(e, 'ScriptBlockText')),
    4103: (e, emit) => scriptIndicators(e, emit, field(e, 'Payload')),
  },
  [POWERSHELL_CLASSIC]: { 400: engineStarted, 800: (e, emit) => scriptIndicators(e, emit, classicText(e)) },
  [FIREWALL]: { 2003: firewallSetting },
  [SYSMON]: { 12: registrySetting, 13: registrySetting },
};
