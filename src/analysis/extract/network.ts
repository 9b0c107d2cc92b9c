/**
 * Network events: connections (Sysmon 3, Security 5156 from the Windows Filtering Platform), DNS
 * queries (Sysmon 22) and inbound file-share access (5140, 5145).
 */
import type { EvtxEvent } from '../../evtx/index.js';
import { resolveParameters } from '../../messages/index.js';
import type { Emit } from '../facts.js';
import { account, field, isBlank, normalizeAddress } from '../text.js';
import { origin, SECURITY, SYSMON } from './common.js';
import type { ExtractorTable } from './registry.js';

const orBlank = (s: string): string => (isBlank(s.trim()) ? '' : s.trim());

function sysmonConnection(e: EvtxEvent, emit: Emit): void {
  const initiated = field(e, 'Initiated').trim().toLowerCase();
  emit({
    kind: 'connection',
    ...origin(e),
    image: field(e, 'Image'),
    user: orBlank(field(e, 'User')),
    protocol: field(e, 'Protocol').trim().toLowerCase(),
    direction: initiated === 'true' ? 'outbound' : initiated === 'false' ? 'inbound' : '',
    sourceAddress: normalizeAddress(field(e, 'SourceIp')),
    destAddress: normalizeAddress(field(e, 'DestinationIp')),
    destPort: field(e, 'DestinationPort').trim(),
    destHost: orBlank(field(e, 'DestinationHostname')),
  });
}

const IP_PROTOCOLS: Readonly<Record<string, string>> = {
  '1': 'icmp',
  '6': 'tcp',
  '17': 'udp',
  '58': 'icmpv6',
};

function filteringPlatformConnection(e: EvtxEvent, emit: Emit): void {
  const direction = resolveParameters(field(e, 'Direction')).toLowerCase();
  const protocol = field(e, 'Protocol').trim();
  emit({
    kind: 'connection',
    ...origin(e),
    image: field(e, 'Application'),
    user: '',
    protocol: IP_PROTOCOLS[protocol] ?? protocol,
    direction: direction === 'inbound' ? 'inbound' : direction === 'outbound' ? 'outbound' : '',
    sourceAddress: normalizeAddress(field(e, 'SourceAddress')),
    destAddress: normalizeAddress(field(e, 'DestAddress')),
    destPort: field(e, 'DestPort').trim(),
    destHost: '',
  });
}

function dnsQuery(e: EvtxEvent, emit: Emit): void {
  emit({
    kind: 'dns',
    ...origin(e),
    query: field(e, 'QueryName').trim(),
    image: field(e, 'Image'),
    results: orBlank(field(e, 'QueryResults')),
    status: field(e, 'QueryStatus').trim(),
  });
}

/** ADMIN$, C$, D$…: administrative shares, the usual path of remote execution tools. */
const ADMIN_SHARE = /\\(ADMIN|[A-Z])\$$/i;

function shareAccess(e: EvtxEvent, emit: Emit): void {
  const addr = normalizeAddress(field(e, 'IpAddress'));
  const share = field(e, 'ShareName').trim();
  const user = account(field(e, 'SubjectDomainName'), field(e, 'SubjectUserName'));
  emit({ kind: 'share', ...origin(e), address: addr, user, share });
  if (!ADMIN_SHARE.test(share)) return;
  emit({
    kind: 'notable',
    ...origin(e),
    name: 'Administrative share access',
    group: `${addr}|${share.toLowerCase()}`,
    category: 'Network',
    importance: 'Medium',
    description: `${share} accessed by ${user || 'unknown user'} from ${addr || 'unknown address'}`,
  });
}

export const NETWORK_EXTRACTORS: ExtractorTable = {
  [SYSMON]: { 3: sysmonConnection, 22: dnsQuery },
  [SECURITY]: { 5156: filteringPlatformConnection, 5140: shareAccess, 5145: shareAccess },
};
