/** A small deterministic log written by our own writer, for CLI and golden tests. */
import type { EventDescription } from '../../fixtures/evtx-writer/index.js';
import { writeEvtx } from '../../fixtures/evtx-writer/index.js';
import { randomEvents } from '../../fixtures/large-events.js';

export function smallLogEvents(): EventDescription[] {
  const base = {
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
    channel: 'Security',
    computer: 'WS-FINANCE-07',
    processId: 612,
    threadId: 1048,
    keywords: 0x8010000000000000n,
    task: 12544,
    level: 0,
  };
  const events: EventDescription[] = [];
  for (let i = 0; i < 4; i++) {
    events.push({
      ...base,
      time: `2026-03-01T10:00:0${i}.1234567Z`,
      eventId: 4625,
      eventData: {
        TargetUserName: 'administrator',
        IpAddress: '10.0.13.37',
        LogonType: { type: 'uint32', value: 3 },
        Status: { type: 'hex32', value: 0xc000006d },
      },
    });
  }
  events.push({
    ...base,
    time: '2026-03-01T10:00:09.9999999Z',
    eventId: 4624,
    eventData: {
      TargetUserName: 'administrator',
      IpAddress: '10.0.13.37',
      LogonType: { type: 'uint32', value: 3 },
      ProcessId: { type: 'sizet', value: 0x3e8n },
    },
  });
  events.push({
    ...base,
    channel: 'System',
    provider: 'Service Control Manager',
    providerGuid: '555908D1-A6D7-4695-8E1E-26931D2012F4',
    time: '2026-03-01T10:01:00.0000001Z',
    eventId: 7045,
    eventData: {
      ServiceName: 'evilsvc',
      ImagePath: 'C:\\Users\\Public\\svc.exe "<x>"',
      ServiceType: 'user mode service',
      StartType: 'auto start',
      AccountName: 'LocalSystem',
    },
  });
  events.push({
    ...base,
    time: '2026-03-01T10:02:00Z',
    eventId: 1102,
    userData: {
      element: 'LogFileCleared',
      xmlns: 'http://manifests.microsoft.com/win/2004/08/windows/eventlog',
      fields: {
        SubjectUserName: 'administrator',
        SubjectDomainName: 'CORP',
        SubjectLogonId: { type: 'hex64', value: 0x3e7n },
      },
    },
  });
  return events;
}

export const smallLog = (): Uint8Array => writeEvtx(smallLogEvents());

/** A log of `count` varied events (fixtures/large-events.ts, seed 1): about 2 KB of log each. */
export function manyEventsLog(count: number): Uint8Array {
  const events = randomEvents(1);
  return writeEvtx(Array.from({ length: count }, () => events.next().value));
}
