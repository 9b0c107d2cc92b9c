/** A decoded Security 4625 (failed logon) event, as the decoder's flat model shapes it, with overrides. */
import type { EvtxEvent } from '../../src/evtx/index.js';

export function securityEvent(over: Partial<EvtxEvent> = {}): EvtxEvent {
  return {
    recordId: 1,
    timestamp: Date.parse('2024-03-12T10:00:00Z'),
    timestampText: '2024-03-12T10:00:00.0000000Z',
    eventId: 4625,
    qualifiers: null,
    version: 0,
    level: 0,
    task: 12544,
    opcode: 0,
    keywords: '0x8010000000000000',
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: null,
    channel: 'Security',
    computer: 'HOST-1',
    userSid: null,
    processId: 668,
    threadId: 1,
    data: {
      TargetUserName: 'admin',
      TargetDomainName: 'CORP',
      LogonType: '3',
      IpAddress: '10.0.0.9',
      Status: '0xc000006d',
      SubStatus: '0xc000006a',
    },
    unnamedData: [],
    userDataName: null,
    ...over,
  };
}
