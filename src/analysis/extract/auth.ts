/**
 * Authentication events: Security logons, failures, logoffs, explicit credentials, Kerberos and
 * NTLM validation, and the Terminal Services RDP events. Each becomes one `auth` fact (the logon
 * summary); RDP logons, roasting and DCSync also become timeline notables.
 */
import type { EvtxEvent } from '../../evtx/index.js';
import type { AuthEvent, AuthOutcome, Emit } from '../facts.js';
import { account, field, isBlank, normalizeAddress } from '../text.js';
import {
  isLoopback,
  isSuccessStatus,
  logonTypeLabel,
  origin,
  RDP_LOCAL_SESSION,
  RDP_REMOTE_CONNECTION,
  SECURITY,
  statusText,
} from './common.js';
import type { ExtractorTable } from './registry.js';

type AuthFields = Omit<AuthEvent, 'kind' | 'computer' | 'time' | 'recordId' | 'ref' | 'eventId'>;

function auth(e: EvtxEvent, emit: Emit, f: AuthFields): void {
  emit({ kind: 'auth', ...origin(e), eventId: e.eventId, ...f });
  if (f.remote === 'RDP' && f.outcome === 'success' && f.address !== '') {
    emit({
      kind: 'notable',
      ...origin(e),
      name: 'RDP logon',
      group: `${f.user.toLowerCase()}|${f.address}`,
      category: 'Authentication',
      importance: 'Medium',
      description: `RDP logon by ${f.user || 'unknown user'} from ${f.address}`,
    });
  }
}

const target = (e: EvtxEvent): string => account(field(e, 'TargetDomainName'), field(e, 'TargetUserName'));
const subject = (e: EvtxEvent): string => account(field(e, 'SubjectDomainName'), field(e, 'SubjectUserName'));
const address = (e: EvtxEvent, name = 'IpAddress'): string => normalizeAddress(field(e, name));
const workstation = (e: EvtxEvent, name = 'WorkstationName'): string => {
  const w = field(e, name).trim();
  return isBlank(w) ? '' : w;
};

/** RDP for type 10/12 logons; `Network logon` for type 3 from another host. */
function remoteKind(type: string, addr: string): AuthEvent['remote'] {
  if (type === '10' || type === '12') return 'RDP';
  return type === '3' && addr !== '' && !isLoopback(addr) ? 'Network logon' : null;
}

function logon(e: EvtxEvent, emit: Emit, outcome: AuthOutcome): void {
  const type = field(e, 'LogonType').trim();
  const addr = address(e);
  const sub = field(e, 'SubStatus');
  const code = outcome === 'failure' ? (isBlank(sub) || isSuccessStatus(sub) ? field(e, 'Status') : sub) : '';
  auth(e, emit, {
    user: target(e),
    logonType: logonTypeLabel(type),
    address: addr,
    workstation: workstation(e),
    outcome,
    reason: code === '' ? '' : statusText(code),
    remote: remoteKind(type, addr),
  });
}

function simple(logonType: string, user: (e: EvtxEvent) => string, outcome: AuthOutcome = 'none') {
  return (e: EvtxEvent, emit: Emit): void =>
    auth(e, emit, {
      user: user(e),
      logonType,
      address: '',
      workstation: '',
      outcome,
      reason: '',
      remote: null,
    });
}

function explicit(e: EvtxEvent, emit: Emit): void {
  const addr = address(e);
  auth(e, emit, {
    user: target(e),
    logonType: 'Explicit credentials',
    address: addr,
    workstation: '',
    outcome: 'none',
    reason: '',
    remote: null,
  });
  emit({
    kind: 'explicit',
    ...origin(e),
    subject: subject(e),
    target: target(e),
    server: workstation(e, 'TargetServerName'),
    process: field(e, 'ProcessName'),
    address: addr,
  });
}

/** 4768/4769/4771/4776: the Status field says whether the DC accepted the credentials. */
function byStatus(logonType: string, user: (e: EvtxEvent) => string, station = '') {
  return (e: EvtxEvent, emit: Emit): void => {
    const status = field(e, 'Status');
    const ok = isSuccessStatus(status);
    auth(e, emit, {
      user: user(e),
      logonType,
      address: address(e),
      workstation: station === '' ? '' : workstation(e, station),
      outcome: ok ? 'success' : 'failure',
      reason: ok ? '' : statusText(status),
      remote: null,
    });
  };
}

function ticketGranting(e: EvtxEvent, emit: Emit): void {
  byStatus('Kerberos TGT', target)(e, emit);
  if (field(e, 'PreAuthType').trim() === '0' && isSuccessStatus(field(e, 'Status'))) {
    const user = target(e);
    emit({
      kind: 'notable',
      ...origin(e),
      name: 'AS-REP roasting',
      group: user.toLowerCase(),
      category: 'Authentication',
      importance: 'High',
      description: `TGT without pre-authentication issued for ${user} to ${address(e) || 'unknown address'}`,
    });
  }
}

function serviceTicket(e: EvtxEvent, emit: Emit): void {
  const user = (x: EvtxEvent) => field(x, 'TargetUserName');
  byStatus('Kerberos service ticket', user)(e, emit);
  const service = field(e, 'ServiceName');
  const rc4 = /^0x(17|18)$/i.test(field(e, 'TicketEncryptionType').trim());
  if (!rc4 || !isSuccessStatus(field(e, 'Status')) || /^krbtgt$|\$$/i.test(service) || service === '') return;
  emit({
    kind: 'notable',
    ...origin(e),
    name: 'Kerberoasting',
    group: service.toLowerCase(),
    category: 'Authentication',
    importance: 'Medium',
    description: `RC4 service ticket for ${service} requested by ${user(e)} from ${address(e) || 'unknown address'}`,
  });
}

/** Replication rights (DS-Replication-Get-Changes, -All, -In-Filtered-Set) used by a user account. */
const REPLICATION =
  /1131f6aa-9c07-11d1-f79f-00c04fc2dcd2|1131f6ad-9c07-11d1-f79f-00c04fc2dcd2|89e95b76-444d-4c62-991a-0facbeda640c/i;

function directoryAccess(e: EvtxEvent, emit: Emit): void {
  const who = field(e, 'SubjectUserName');
  if (!REPLICATION.test(field(e, 'Properties')) || who.endsWith('$') || isBlank(who)) return;
  emit({
    kind: 'notable',
    ...origin(e),
    name: 'DCSync',
    group: subject(e).toLowerCase(),
    category: 'Authentication',
    importance: 'High',
    description: `Directory replication requested by user account ${subject(e)}`,
  });
}

/** Terminal Services LocalSessionManager 21–25: User, SessionID, Address in UserData. */
function rdpSession(logonType: string, outcome: AuthOutcome) {
  return (e: EvtxEvent, emit: Emit): void => {
    const addr = normalizeAddress(field(e, 'Address'));
    const remote = addr !== '' && !/^local$/i.test(addr) ? addr : '';
    auth(e, emit, {
      user: field(e, 'User'),
      logonType,
      address: remote,
      workstation: '',
      outcome,
      reason: '',
      remote: remote === '' ? null : 'RDP',
    });
  };
}

/** RemoteConnectionManager 1149: network-level authentication succeeded (Param1 user, Param3 address). */
function rdpAuthenticated(e: EvtxEvent, emit: Emit): void {
  const addr = normalizeAddress(field(e, 'Param3'));
  auth(e, emit, {
    user: account(field(e, 'Param2'), field(e, 'Param1')),
    logonType: 'RDP authentication',
    address: addr,
    workstation: '',
    outcome: 'success',
    reason: '',
    remote: addr === '' ? null : 'RDP',
  });
}

export const AUTH_EXTRACTORS: ExtractorTable = {
  [SECURITY]: {
    4624: (e, emit) => logon(e, emit, 'success'),
    4625: (e, emit) => logon(e, emit, 'failure'),
    4634: (e, emit) => simple(logonTypeLabel(field(e, 'LogonType')), target)(e, emit),
    4647: simple('User-initiated logoff', target),
    4648: explicit,
    4672: simple('Special privileges', subject),
    4662: directoryAccess,
    4768: ticketGranting,
    4769: serviceTicket,
    4771: byStatus('Kerberos pre-authentication', (e) => field(e, 'TargetUserName')),
    4776: byStatus('NTLM validation', (e) => field(e, 'TargetUserName'), 'Workstation'),
  },
  [RDP_LOCAL_SESSION]: {
    21: rdpSession('RDP session logon', 'success'),
    22: rdpSession('RDP shell start', 'none'),
    23: rdpSession('RDP session logoff', 'none'),
    24: rdpSession('RDP session disconnected', 'none'),
    25: rdpSession('RDP session reconnected', 'success'),
  },
  [RDP_REMOTE_CONNECTION]: { 1149: rdpAuthenticated },
};
