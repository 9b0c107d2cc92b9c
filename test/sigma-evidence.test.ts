/**
 * `matchEvidence`: the fields a rule tests first (matched ones marked, with the matched text's
 * places), then the usual ones; the event's own names for a derived variant (4688); attacker
 * text escaped and long values cut around the match; negated selections never marked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EvtxEvent } from '../src/evtx/index.js';
import {
  type EvidenceField,
  escapeEvidence,
  eventFromObject,
  evidenceLine,
  loadRules,
  matchEvidence,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../src/sigma/index.js';

const rule = (detection: string, logsource = 'category: process_creation'): SigmaRule => {
  const loaded = loadRules(
    `title: t\nid: 00000000-0000-4000-8000-000000000001\nlogsource:\n  product: windows\n  ${logsource}\ndetection:\n${detection}`,
    'r.yml',
  );
  assert.equal(loaded.rules.length, 1, JSON.stringify(loaded.diagnostics));
  return loaded.rules[0]!;
};

const ENCODED = rule(`  selection:
    Image|endswith: '\\powershell.exe'
    CommandLine|contains: ' -enc '
  filter:
    ParentImage|endswith: '\\explorer.exe'
  condition: selection and not filter
`);

const highlighted = (f: EvidenceField) => f.spans.map(([s, e]) => f.value.slice(s, e));

function evtx(eventId: number, channel: string, data: Record<string, string>): EvtxEvent {
  return {
    recordId: 7,
    timestamp: 0,
    timestampText: '2024-01-01T00:00:00.0000000Z',
    eventId,
    qualifiers: null,
    version: null,
    level: null,
    task: null,
    opcode: null,
    keywords: null,
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: null,
    channel,
    computer: 'HOST',
    userSid: null,
    processId: null,
    threadId: null,
    data,
    unnamedData: [],
    userDataName: null,
  } as unknown as EvtxEvent;
}

test('the fields the rule matched come first, marked, with the matched text placed; usual fields follow', () => {
  const event = eventFromObject({
    EventID: 1,
    Channel: 'Microsoft-Windows-Sysmon/Operational',
    Image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    CommandLine: 'powershell.exe -nop -enc SQBFAFgA',
    ParentImage: 'C:\\Windows\\System32\\cmd.exe',
    User: 'CORP\\m.jensen',
    TargetUserName: '-',
    Hashes: 'MD5=00',
  });
  const fields = matchEvidence(ENCODED, event);
  assert.deepEqual(
    fields.map((f) => [f.name, f.matched]),
    [
      ['Image', true],
      ['CommandLine', true],
      ['ParentImage', false], // the filter's field: listed, never marked
      ['User', false],
    ],
  );
  assert.deepEqual(highlighted(fields[0]!), ['\\powershell.exe']);
  assert.deepEqual(highlighted(fields[1]!), [' -enc ']);
  assert.deepEqual(fields[2]!.spans, []);
  assert.equal(
    evidenceLine(fields),
    'Image: C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe ¦ CommandLine: powershell.exe -nop -enc SQBFAFgA ¦ ParentImage: C:\\Windows\\System32\\cmd.exe ¦ User: CORP\\m.jensen',
  );
});

test('a Sysmon rule matched on Security 4688 shows 4688 names (NewProcessName), marked', () => {
  const event = sigmaEventFromEvtx(
    evtx(4688, 'Security', {
      NewProcessName: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      CommandLine: 'powershell -enc AAAA',
      ParentProcessName: 'C:\\Windows\\System32\\cmd.exe',
      SubjectUserName: 'bob',
    }),
  );
  const fields = matchEvidence(ENCODED, event);
  assert.deepEqual(
    fields.map((f) => [f.name, f.matched]),
    [
      ['NewProcessName', true],
      ['CommandLine', true],
      ['ParentProcessName', false],
      ['SubjectUserName', false],
    ],
  );
});

test('attacker text is escaped: controls, bidi overrides, zero-width marks, lone surrogates', () => {
  assert.equal(
    escapeEvidence('a\r\nb\tc\u0007d\u202ee\u200bf\ud800g'),
    'a\\r\\nb\\tc\\x07d\\u{202E}e\\u{200B}f\\u{D800}g',
  );
  const event = eventFromObject({
    Image: 'C:\\x\\powershell.exe',
    CommandLine: 'powershell -enc \u202eAAAA\r\nB',
  });
  const line = evidenceLine(matchEvidence(ENCODED, event));
  assert.ok(line.includes('-enc \\u{202E}AAAA\\r\\nB'), line);
  assert.ok(!/[\u0000-\u001f\u202e]/.test(line));
});

test('a long value is cut around the first matched text, which stays visible and marked', () => {
  const command = `powershell ${'x'.repeat(5000)} -enc ${'Q'.repeat(5000)}`;
  const fields = matchEvidence(
    ENCODED,
    eventFromObject({ Image: 'C:\\powershell.exe', CommandLine: command }),
    {
      maxValueChars: 120,
    },
  );
  const cmd = fields.find((f) => f.name === 'CommandLine')!;
  assert.ok(cmd.value.length <= 122, String(cmd.value.length));
  assert.ok(cmd.value.startsWith('…') && cmd.value.endsWith('…'));
  assert.deepEqual(highlighted(cmd), [' -enc ']);
});

test('limits: at most maxFields fields, spans inside the shown text', () => {
  const many = rule(`  selection:
    CommandLine|contains:
      - 'a'
      - 'b'
  condition: selection
`);
  const event = eventFromObject({
    CommandLine: 'ab'.repeat(400),
    Image: 'i',
    ParentImage: 'p',
    ParentCommandLine: 'pc',
    User: 'u',
  });
  const fields = matchEvidence(many, event, { maxFields: 3, maxSpans: 4, maxValueChars: 50 });
  assert.equal(fields.length, 3);
  const cmd = fields[0]!;
  assert.ok(cmd.spans.length <= 4);
  for (const [s, e] of cmd.spans) assert.ok(s >= 0 && e <= cmd.value.length && s < e);
});

test('keyword rules mark the field that holds the keyword (EVTX events)', () => {
  const keyword = rule(
    `  keywords:
    - 'mimikatz'
  condition: keywords
`,
    'service: security',
  );
  const event = sigmaEventFromEvtx(
    evtx(4688, 'Security', { NewProcessName: 'C:\\t\\mimikatz.exe', SubjectUserName: 'bob' }),
  );
  const fields = matchEvidence(keyword, event);
  const hit = fields.find((f) => f.name === 'NewProcessName')!;
  assert.equal(hit.matched, true);
  assert.deepEqual(highlighted(hit), ['mimikatz']);
});

test('regex, numbers and CIDR values are highlighted where they matched', () => {
  const r = rule(
    `  selection:
    EventID: 4624
    LogonType: 10
    IpAddress|cidr: '10.0.0.0/8'
    WorkstationName|re: 'KALI-\\d+'
  condition: selection
`,
    'service: security',
  );
  const event = eventFromObject({
    EventID: 4624,
    LogonType: '10',
    IpAddress: '10.1.2.3',
    WorkstationName: 'host KALI-42',
    TargetUserName: 'admin',
  });
  const fields = matchEvidence(r, event);
  assert.deepEqual(
    fields.map((f) => [f.name, highlighted(f)]),
    [
      ['LogonType', ['10']],
      ['IpAddress', ['10.1.2.3']],
      ['WorkstationName', ['KALI-42']],
      ['TargetUserName', []],
    ],
  );
});
