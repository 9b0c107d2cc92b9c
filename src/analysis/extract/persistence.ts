/**
 * Persistence: services (7045, 4697), scheduled tasks (4698/4699/4702, TaskScheduler 106/140/141),
 * autostart registry changes (Sysmon 12–14), WMI subscriptions (Sysmon 19–21, WMI-Activity 5861),
 * startup-folder files (Sysmon 11), accounts (4720/4722/4728/4732/4756) and BITS jobs. Each is a
 * `persistence` fact; the ones analysts must see also become timeline notables.
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { Importance } from '../../insights/index.js';
import type { Emit, Mechanism, PersistenceChange } from '../facts.js';
import { account, basename, field, isBlank, oneLine } from '../text.js';
import { BITS, origin, SCM, SECURITY, SYSMON, TASK_SCHEDULER, WMI_ACTIVITY } from './common.js';
import { isPrivilegedGroup } from './names.js';
import type { ExtractorTable } from './registry.js';
import { autostartMechanism, isServiceKey } from './registry-keys.js';

type Change = Pick<PersistenceChange, 'mechanism' | 'action' | 'name' | 'detail' | 'user'>;

function persist(
  e: EvtxEvent,
  emit: Emit,
  c: Change,
  notable?: { name: string; importance: Importance },
): void {
  emit({ kind: 'persistence', ...origin(e), ...c });
  if (notable === undefined) return;
  emit({
    kind: 'notable',
    ...origin(e),
    name: notable.name,
    group: `${c.mechanism}|${c.name.toLowerCase()}`,
    category: 'Persistence',
    importance: notable.importance,
    description: oneLine(
      `${c.mechanism} ${c.action}: ${c.name}${c.detail ? ` → ${c.detail}` : ''}${c.user ? ` (by ${c.user})` : ''}`,
      400,
    ),
  });
}

const subject = (e: EvtxEvent): string => account(field(e, 'SubjectDomainName'), field(e, 'SubjectUserName'));

/** Service command lines that run a shell, a script host or a binary from a user-writable folder. */
const SUSPICIOUS_SERVICE =
  /%comspec%|mimikatz|mimidrv|(^|\\)cmd(\.exe)?"?(\s|$)|cmd(\.exe)?\s+\/[ck]|powershell|pwsh|mshta|rundll32|regsvr32|wscript|cscript|\\users\\|\\temp\\|\\programdata\\|\\appdata\\|\\perflogs\\|\\\\127\.0\.0\.1\\|admin\$|psexesvc|-enc\s/i;

function serviceInstalled(
  e: EvtxEvent,
  emit: Emit,
  name: string,
  image: string,
  extra: string,
  user: string,
): void {
  persist(
    e,
    emit,
    { mechanism: 'Service', action: 'installed', name, detail: extra ? `${image} (${extra})` : image, user },
    {
      name: 'Service installed',
      importance: SUSPICIOUS_SERVICE.test(image) || /psexe/i.test(name) ? 'High' : 'Medium',
    },
  );
}

const START_TYPES: Readonly<Record<string, string>> = {
  '0': 'boot',
  '1': 'system',
  '2': 'auto start',
  '3': 'demand start',
  '4': 'disabled',
};

/** `<Command>`/`<Arguments>` of a task's XML, entities decoded. */
function taskAction(xml: string): string {
  const text = xml.length > 65_536 ? xml.slice(0, 65_536) : xml;
  const pick = (tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'i').exec(text)?.[1] ?? '';
  const decode = (s: string) =>
    s.replace(
      /&(lt|gt|quot|apos|amp);/g,
      (_m, n: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[n] ?? '',
    );
  return oneLine(decode(`${pick('Command')} ${pick('Arguments')}`), 300);
}

function task(action: 'created' | 'updated' | 'deleted', content: string, user: (e: EvtxEvent) => string) {
  const notable = {
    created: { name: 'Scheduled task created', importance: 'Medium' as const },
    updated: { name: 'Scheduled task updated', importance: 'Low' as const },
    deleted: { name: 'Scheduled task deleted', importance: 'Low' as const },
  }[action];
  return (e: EvtxEvent, emit: Emit): void =>
    persist(
      e,
      emit,
      {
        mechanism: 'Scheduled Task',
        action,
        name: field(e, 'TaskName'),
        detail: content ? taskAction(field(e, content)) : '',
        user: user(e),
      },
      notable,
    );
}

function registryChange(e: EvtxEvent, emit: Emit): void {
  const key = field(e, 'TargetObject');
  const type = field(e, 'EventType');
  const mechanism =
    autostartMechanism(key) ?? (/CreateKey/i.test(type) && isServiceKey(key) ? 'Service Registry' : null);
  if (mechanism === null) return;
  const detail = e.eventId === 14 ? field(e, 'NewName') : field(e, 'Details');
  const set = /SetValue|CreateKey|Rename/i.test(type);
  persist(
    e,
    emit,
    {
      mechanism,
      action: type || 'changed',
      name: key,
      detail: isBlank(detail) ? '' : detail,
      user: field(e, 'User') || field(e, 'Image'),
    },
    set ? registryNotable(mechanism) : undefined,
  );
}

/** SAM account data written by a process (hidden accounts, RID hijacking) outranks an autostart. */
function registryNotable(mechanism: Mechanism): { name: string; importance: Importance } {
  if (mechanism === 'Account') return { name: 'SAM account data changed', importance: 'High' };
  return {
    name: 'Autostart registry entry',
    importance: mechanism === 'Image File Execution Options' ? 'High' : 'Medium',
  };
}

const STARTUP = /\\Start Menu\\Programs\\Startup\\/i;

function fileCreated(e: EvtxEvent, emit: Emit): void {
  const path = field(e, 'TargetFilename');
  if (!STARTUP.test(path)) return;
  persist(
    e,
    emit,
    {
      mechanism: 'Startup Folder',
      action: 'file created',
      name: basename(path),
      detail: path,
      user: field(e, 'User') || field(e, 'Image'),
    },
    { name: 'Startup folder file', importance: 'Medium' },
  );
}

/** Sysmon 19–21 values come quoted (` "BotFilter82"`); the quotes are noise. */
const unquote = (s: string): string =>
  s.trim().replace(/^"|"$/g, '').replace(/\\\\/g, '\\').replace(/\\"/g, '"');

function wmi(e: EvtxEvent, emit: Emit): void {
  const operation = field(e, 'Operation').trim() || 'changed';
  const [name, detail] =
    e.eventId === 19
      ? [
          unquote(field(e, 'Name')),
          `filter ${unquote(field(e, 'EventNamespace'))}: ${unquote(field(e, 'Query'))}`,
        ]
      : e.eventId === 20
        ? [
            unquote(field(e, 'Name')),
            `consumer ${unquote(field(e, 'Type'))}: ${unquote(field(e, 'Destination'))}`,
          ]
        : [unquote(field(e, 'Consumer')), `binding to ${unquote(field(e, 'Filter'))}`];
  const created = /created/i.test(operation);
  persist(
    e,
    emit,
    { mechanism: 'WMI Subscription', action: operation.toLowerCase(), name, detail, user: field(e, 'User') },
    created ? { name: 'WMI event subscription', importance: 'High' } : undefined,
  );
}

function wmiActivity(e: EvtxEvent, emit: Emit): void {
  persist(
    e,
    emit,
    {
      mechanism: 'WMI Subscription',
      action: 'registered',
      name: oneLine(field(e, 'CONSUMER'), 200),
      detail: oneLine(field(e, 'PossibleCause'), 300),
      user: '',
    },
    { name: 'WMI event subscription', importance: 'High' },
  );
}

function accountChange(action: string, notable: string) {
  return (e: EvtxEvent, emit: Emit): void =>
    persist(
      e,
      emit,
      {
        mechanism: 'Account',
        action,
        name: account(field(e, 'TargetDomainName'), field(e, 'TargetUserName')),
        detail: field(e, 'TargetSid'),
        user: subject(e),
      },
      { name: notable, importance: 'Medium' },
    );
}

function groupMember(e: EvtxEvent, emit: Emit): void {
  const group = field(e, 'TargetUserName');
  const member = isBlank(field(e, 'MemberName')) ? field(e, 'MemberSid') : field(e, 'MemberName');
  const privileged = isPrivilegedGroup(group, field(e, 'TargetSid'));
  persist(
    e,
    emit,
    {
      mechanism: 'Account',
      action: `added to group ${group}`,
      name: member,
      detail: account(field(e, 'TargetDomainName'), group),
      user: subject(e),
    },
    privileged
      ? { name: 'Added to privileged group', importance: 'High' }
      : { name: 'Added to group', importance: 'Low' },
  );
}

function bitsTransfer(e: EvtxEvent, emit: Emit): void {
  persist(e, emit, {
    mechanism: 'BITS Job' as Mechanism,
    action: 'transfer started',
    name: field(e, 'name'),
    detail: field(e, 'url'),
    user: '',
  });
}

export const PERSISTENCE_EXTRACTORS: ExtractorTable = {
  [SCM]: {
    7045: (e, emit) =>
      serviceInstalled(
        e,
        emit,
        field(e, 'ServiceName'),
        field(e, 'ImagePath'),
        [field(e, 'StartType'), field(e, 'AccountName')].filter((s) => !isBlank(s)).join('; '),
        e.userSid ?? '',
      ),
  },
  [SECURITY]: {
    4697: (e, emit) => {
      const start = field(e, 'ServiceStartType').trim();
      const extra = [START_TYPES[start] ?? start, field(e, 'ServiceAccount')]
        .filter((s) => !isBlank(s))
        .join('; ');
      serviceInstalled(e, emit, field(e, 'ServiceName'), field(e, 'ServiceFileName'), extra, subject(e));
    },
    4698: task('created', 'TaskContent', subject),
    4699: task('deleted', '', subject),
    4702: task('updated', 'TaskContentNew', subject),
    4720: accountChange('created', 'Account created'),
    4722: accountChange('enabled', 'Account enabled'),
    4728: groupMember,
    4732: groupMember,
    4756: groupMember,
  },
  [TASK_SCHEDULER]: {
    106: task('created', '', (e) => field(e, 'UserContext')),
    140: task('updated', '', (e) => field(e, 'UserName')),
    141: task('deleted', '', (e) => field(e, 'UserName')),
  },
  [SYSMON]: {
    11: fileCreated,
    12: registryChange,
    13: registryChange,
    14: registryChange,
    19: wmi,
    20: wmi,
    21: wmi,
  },
  [WMI_ACTIVITY]: { 5861: wmiActivity },
  [BITS]: { 59: bitsTransfer },
};
