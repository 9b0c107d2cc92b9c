/**
 * A generated log and rule directory for the triage controls: four Security events on three
 * computers ten minutes apart, and five rules of every status, several levels and tags.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EventDescription, writeEvtx } from '../../fixtures/evtx-writer/index.js';

export const RULE_ID = {
  low: '7a1c0000-0000-4000-8000-000000000001',
  high: '7a1c0000-0000-4000-8000-000000000002',
  exp: '7a1c0000-0000-4000-8000-000000000003',
  dep: '7a1c0000-0000-4000-8000-000000000004',
  unsup: '7a1c0000-0000-4000-8000-000000000005',
} as const;

const EVENTS: [computer: string, time: string, eventId: number, user: string][] = [
  ['HOST-A', '2026-03-01T10:00:00Z', 4625, 'alice'],
  ['HOST-B', '2026-03-01T10:05:00Z', 4625, 'bob'],
  ['host-a', '2026-03-01T10:10:00Z', 4624, 'alice'],
  ['HOST-C', '2026-03-01T10:20:00Z', 4625, 'carol'],
];

function events(): EventDescription[] {
  return EVENTS.map(([computer, time, eventId, user]) => ({
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
    channel: 'Security',
    computer,
    time,
    eventId,
    eventData: { TargetUserName: user, IpAddress: '10.0.13.37' },
  }));
}

function rule(
  id: string,
  title: string,
  status: string,
  level: string,
  tag: string,
  selection: string,
): string {
  return `title: ${title}
id: ${id}
status: ${status}
level: ${level}
tags:
  - ${tag}
logsource:
  product: windows
  service: security
detection:
  selection:
    ${selection}
  condition: selection
`;
}

/** Writes `triage.evtx` and `rules/` into dir. */
export function writeTriageFixture(dir: string): void {
  writeFileSync(join(dir, 'triage.evtx'), writeEvtx(events()));
  const rules = join(dir, 'rules');
  mkdirSync(rules, { recursive: true });
  const files: [string, string][] = [
    ['r-low.yml', rule(RULE_ID.low, 'Failed logon', 'stable', 'low', 'attack.t1110', 'EventID: 4625')],
    ['r-high.yml', rule(RULE_ID.high, 'Logon', 'test', 'high', 'attack.t1078', 'EventID: 4624')],
    [
      'r-exp.yml',
      rule(RULE_ID.exp, 'Alice', 'experimental', 'medium', 'attack.t1110', 'TargetUserName: alice'),
    ],
    [
      'r-dep.yml',
      rule(RULE_ID.dep, 'Old failed logon', 'deprecated', 'critical', 'attack.t1110', 'EventID: 4625'),
    ],
    [
      'r-unsup.yml',
      rule(RULE_ID.unsup, 'Odd logon', 'unsupported', 'critical', 'attack.t1078', 'EventID: 4624'),
    ],
  ];
  for (const [name, text] of files) writeFileSync(join(rules, name), text);
}
