/**
 * The rule set: EVTX events as Sigma events, the (channel, event id) index and its literal
 * prefilter, filters and accounting, on generated events (the decoded corpus with every active
 * SigmaHQ rule: sigma-ruleset-corpus.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { TaeError } from '../src/errors/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import {
  anchorKey,
  compileRuleSet,
  eventFromObject,
  loadRules,
  type RuleSet,
  requiredEventIds,
  type SigmaEvent,
  type SigmaRule,
  sigmaEventFromEvtx,
} from '../src/sigma/index.js';

const R = String.raw;
const SYSMON = 'Microsoft-Windows-Sysmon/Operational';
const base = { time: '2024-05-01T10:00:00.5Z', computer: 'WS1' };

async function decode(events: EventDescription[]): Promise<EvtxEvent[]> {
  const out: EvtxEvent[] = [];
  for await (const r of parseEvtx(Buffer.from(writeEvtx(events)), { outputs: ['event'] }))
    if (r.event) out.push(r.event);
  return out;
}

function rules(text: string): SigmaRule[] {
  const r = loadRules(text, 'r.yml');
  assert.deepEqual(r.diagnostics, []);
  return r.rules;
}

const doc = (title: string, logsource: string, detection: string) =>
  `title: ${title}\nlogsource:\n${logsource.replace(/^/gm, '  ')}\ndetection:\n${detection.replace(/^/gm, '  ')}\n---\n`;

const ev = (fields: Record<string, unknown>): SigmaEvent => eventFromObject(fields);
const titles = (rs: RuleSet, e: SigmaEvent) => rs.match(e).map((m) => `${m.rule.title}/${m.variant.name}`);

describe('EVTX events as Sigma events (§3.3)', () => {
  test('System names, EventData, unnamed Data, UserData payload and space-less aliases resolve; System wins', async () => {
    const [named, unnamed, userData] = await decode([
      {
        ...base,
        provider: 'Microsoft-Windows-Windows Defender',
        providerGuid: '11CD958A-C507-4EF3-B3F2-5FD9DFBD2C78',
        eventId: 1116,
        qualifiers: 16384,
        version: 2,
        level: 3,
        task: 5,
        opcode: 1,
        channel: 'Microsoft-Windows-Windows Defender/Operational',
        processId: 4,
        threadId: 88,
        userSid: 'S-1-5-18',
        eventData: {
          'Threat Name': 'EICAR',
          Channel: 'spoofed',
          Tags: { type: 'stringArray', value: ['a', 'b'] },
        },
      },
      {
        ...base,
        provider: 'PowerShell',
        eventId: 400,
        channel: 'Windows PowerShell',
        unnamedData: ['Available', 'HostName=ConsoleHost'],
      },
      {
        ...base,
        provider: 'Microsoft-Windows-Eventlog',
        eventId: 1102,
        channel: 'Security',
        userData: { element: 'LogFileCleared', fields: { SubjectUserName: 'alice' } },
      },
    ]);
    const e = sigmaEventFromEvtx(named!);
    const expected: Record<string, unknown> = {
      EventID: 1116,
      Channel: 'Microsoft-Windows-Windows Defender/Operational',
      Computer: 'WS1',
      Provider_Name: 'Microsoft-Windows-Windows Defender',
      Level: 3,
      Task: 5,
      Opcode: 1,
      Version: 2,
      Execution_ProcessID: 4,
      Execution_ThreadID: 88,
      Security_UserID: 'S-1-5-18',
      EventID_Qualifiers: 16384,
      TimeCreated_SystemTime: '2024-05-01T10:00:00.5000000Z',
      EventRecordID: 1,
      'Threat Name': 'EICAR',
      ThreatName: 'EICAR',
    };
    for (const [k, v] of Object.entries(expected)) assert.equal(e.get(k), v, k);
    assert.match(String(e.get('Provider_Guid')), /11CD958A/i);
    assert.match(String(e.get('Keywords')), /^0x/);
    assert.equal(
      e.get('Channel'),
      'Microsoft-Windows-Windows Defender/Operational',
      'System wins over EventData',
    );
    assert.deepEqual(e.get('Tags'), ['a', 'b']);
    assert.equal(e.get('Missing'), undefined);
    assert.equal(e.has('Missing'), false);
    assert.equal(e.get('constructor'), undefined, 'no prototype lookups');
    assert.ok([...e.values()].includes('EICAR'));
    const u = sigmaEventFromEvtx(unnamed!);
    assert.deepEqual(u.get('Data'), ['Available', 'HostName=ConsoleHost']);
    assert.ok([...u.values()].includes('HostName=ConsoleHost'));
    assert.equal(sigmaEventFromEvtx(userData!).get('SubjectUserName'), 'alice');
  });

  test('a missing EventID (-1 from the decoder) and empty Channel read as absent', () => {
    const e = sigmaEventFromEvtx({ ...emptyEvent(), eventId: -1, channel: '' });
    assert.equal(e.get('EventID'), undefined);
    assert.equal(e.get('Channel'), undefined);
  });
});

function emptyEvent(): EvtxEvent {
  return {
    recordId: 1,
    timestamp: 0,
    timestampText: '',
    eventId: 1,
    qualifiers: null,
    version: null,
    level: null,
    task: null,
    opcode: null,
    keywords: null,
    provider: '',
    providerGuid: null,
    channel: SYSMON,
    computer: '',
    userSid: null,
    processId: null,
    threadId: null,
    data: {},
    unnamedData: [],
    userDataName: null,
  };
}

describe('event ids a detection requires', () => {
  const ids = (detection: string) => {
    const [r] = rules(doc('t', 'product: windows\nservice: security', detection));
    const got = requiredEventIds(r!.detection);
    return got === 'any' ? 'any' : [...got].sort((a, b) => a - b);
  };

  test('and narrows, or and selectors widen, not and modifiers leave it open', () => {
    assert.deepEqual(ids('a:\n  EventID: 4624\n  LogonType: 3\ncondition: a'), [4624]);
    assert.deepEqual(ids('a:\n  EventID: [4624, 4625]\nb:\n  EventID: 4625\ncondition: a and b'), [4625]);
    assert.deepEqual(ids('a:\n  EventID: 4624\nb:\n  EventID: 4634\ncondition: a or b'), [4624, 4634]);
    assert.deepEqual(ids("a:\n  EventID: 4624\nb:\n  X: 'y'\ncondition: a or b"), 'any');
    assert.deepEqual(ids('a:\n  EventID: 4624\ncondition: not a'), 'any');
    assert.deepEqual(ids('a_1:\n  EventID: 1\na_2:\n  EventID: 2\ncondition: 1 of a_*'), [1, 2]);
    assert.deepEqual(ids("a:\n  EventID: '4688'\ncondition: a"), [4688]);
    assert.deepEqual(ids('a:\n  EventID|gt: 4000\ncondition: a'), 'any');
    assert.deepEqual(ids("a:\n  EventID: '46*'\ncondition: a"), 'any');
    assert.deepEqual(ids('a:\n  - EventID: 1\n  - EventID: 2\ncondition: a'), [1, 2]);
    assert.deepEqual(ids('a:\n  EventID: 1\nb:\n  EventID: 2\ncondition: a and b'), []);
  });
});

describe('the rule set on generated events', () => {
  const text =
    doc(
      'sysmon cmd',
      'product: windows\ncategory: process_creation',
      R`sel:
  Image|endswith: '\cmd.exe'
  CommandLine|contains: 'whoami'
condition: sel`,
    ) +
    doc(
      'logon',
      'product: windows\nservice: security',
      'sel:\n  EventID: 4624\n  LogonType: 10\ncondition: sel',
    ) +
    doc('keyword', 'product: windows', "kw:\n  - 'sekurlsa::'\ncondition: kw") +
    doc(
      'cased',
      'product: windows\nservice: system',
      "sel:\n  ImagePath|contains|cased: 'PSEXESVC'\ncondition: sel",
    ) +
    doc('linux', 'product: linux\ncategory: process_creation', 'sel:\n  Image: x\ncondition: sel') +
    doc('etw', 'product: windows\ncategory: file_access', 'sel:\n  FileName: x\ncondition: sel');
  const all = rules(text);

  test('matches name the rule and the variant; unmapped rules are diagnostics counted by code', () => {
    const rs = compileRuleSet({ rules: all });
    assert.deepEqual(
      titles(rs, ev({ Channel: SYSMON, EventID: 1, Image: R`C:\W\CMD.EXE`, CommandLine: 'cmd /c WHOAMI' })),
      ['sysmon cmd/sysmon'],
    );
    assert.deepEqual(
      titles(
        rs,
        ev({ Channel: 'Security', EventID: 4688, NewProcessName: R`C:\w\cmd.exe`, CommandLine: 'whoami' }),
      ),
      ['sysmon cmd/security'],
    );
    assert.deepEqual(titles(rs, ev({ Channel: 'Security', EventID: 4624, LogonType: '10' })), [
      'logon/security',
    ]);
    assert.deepEqual(titles(rs, ev({ Channel: 'Security', EventID: 4625, LogonType: '10' })), []);
    assert.deepEqual(titles(rs, ev({ Channel: 'Whatever', EventID: 5, x: 'run SEKURLSA::logonpasswords' })), [
      'keyword/windows',
    ]);
    assert.deepEqual(titles(rs, ev({ Channel: 'System', EventID: 7045, ImagePath: R`C:\PSEXESVC.exe` })), [
      'cased/system',
    ]);
    assert.deepEqual(titles(rs, ev({ Channel: 'System', EventID: 7045, ImagePath: R`C:\psexesvc.exe` })), []);
    assert.deepEqual(rs.coverage(), {
      rules: 6,
      mapped: 4,
      variants: 5,
      droppedVariants: 0,
      byCode: { 'logsource.not_applicable': 1, 'logsource.unsupported': 1 },
    });
    assert.deepEqual(
      rs.diagnostics.map((d) => d.title),
      ['linux', 'etw'],
    );
  });

  test('the index offers only variants of the event channel and id (plus all-Windows ones)', () => {
    const rs = compileRuleSet({ rules: all });
    const names = (e: SigmaEvent) => rs.candidates(e).map((v) => `${v.rule.title}/${v.name}`);
    assert.deepEqual(names(ev({ Channel: 'security', EventID: 4624 })), [
      'logon/security',
      'keyword/windows',
    ]);
    assert.deepEqual(names(ev({ Channel: 'Security', EventID: 4688 })), [
      'sysmon cmd/security',
      'keyword/windows',
    ]);
    assert.deepEqual(names(ev({ Channel: 'Security', EventID: 4625 })), ['keyword/windows']);
    assert.deepEqual(names(ev({ EventID: 4624 })), ['keyword/windows']);
    // A multi-valued Channel cannot pick a bucket: every variant is a candidate, verdicts unchanged.
    const odd = ev({ Channel: ['Security', 'System'], EventID: 4624, LogonType: 10 });
    assert.equal(rs.candidates(odd).length, rs.variants.length);
    assert.deepEqual(titles(rs, odd), ['logon/security']);
  });

  test('literal anchors skip evaluations that cannot match, case-insensitively and without changing verdicts', () => {
    const rs = compileRuleSet({ rules: all, options: { timingSample: 1 } });
    const sysmon = (image: string, line: string) =>
      ev({ Channel: SYSMON, EventID: 1, Image: image, CommandLine: line });
    // The variant's anchors are two clauses, '\cmd.exe' and 'whoami': each of the first two
    // events lacks one, so only the last (which has both) is evaluated.
    assert.deepEqual(titles(rs, sysmon(R`C:\w\powershell.exe`, 'whoami')), []);
    assert.deepEqual(titles(rs, sysmon(R`C:\W\CMD.EXE`, 'dir')), []);
    assert.deepEqual(titles(rs, sysmon(R`C:\W\CMD.EXE`, 'x WhoAmI /all')), ['sysmon cmd/sysmon']);
    rs.match(ev({ Channel: 'System', EventID: 1, a: 'b' }));
    const stats = new Map(rs.stats().map((s) => [s.rule.title, s]));
    assert.equal(stats.get('sysmon cmd')!.evaluations, 1, 'the events missing a clause were skipped');
    assert.equal(stats.get('sysmon cmd')!.matches, 1);
    assert.equal(stats.get('keyword')!.evaluations, 0, 'no event contained the keyword');
    assert.equal(stats.get('cased')!.evaluations, 0, 'a cased ASCII value is an anchor, found folded');
    assert.ok(rs.stats().every((s) => s.nanoseconds >= 0 && s.variants.every((v) => v.errors === 0)));
    rs.resetStats();
    assert.ok(rs.stats().every((s) => s.evaluations === 0 && s.matches === 0 && s.nanoseconds === 0));
  });

  test('anchors taken by one rule set are given to the next as they are, and are what gate it', () => {
    const first = compileRuleSet({ rules: all });
    const cmd = (line: string) =>
      ev({ Channel: SYSMON, EventID: 1, Image: R`C:\W\CMD.EXE`, CommandLine: line });
    assert.deepEqual(titles(first, cmd('x whoami')), ['sysmon cmd/sysmon']);
    const taken = first.takenAnchors();
    const key = anchorKey(first.variants.find((v) => v.rule.title === 'sysmon cmd')!);
    assert.ok(taken.get(key)!.length > 0, 'the variant has anchors');
    // Taken as given: an anchor no event holds closes the variant, which a computed one would not.
    const given = new Map(taken).set(key, [[{ field: 'CommandLine', literal: 'never-there' }]]);
    const second = compileRuleSet({ rules: all, options: { knownAnchors: given } });
    assert.deepEqual(titles(second, cmd('x whoami')), []);
    assert.deepEqual(titles(second, cmd('x never-there whoami')), ['sysmon cmd/sysmon']);
    const reported = second.takenAnchors();
    for (const [k, a] of given) assert.deepEqual(reported.get(k), a);
    // Two rules under one source and document cannot be told apart: nothing given, nothing kept.
    const twin = compileRuleSet({ rules: [...all, ...all], options: { knownAnchors: given } });
    assert.deepEqual(titles(twin, cmd('x whoami')), ['sysmon cmd/sysmon', 'sysmon cmd/sysmon']);
    assert.equal(twin.takenAnchors().size, 0);
  });

  test('a field whose literals exceed the scanner budget leaves its largest rule unanchored, not wrong', () => {
    const values = Array.from({ length: 12_000 }, (_, i) => `'lit${String(i).padStart(9, '0')}'`).join(', ');
    const [huge, small] = rules(
      doc(
        'huge',
        'product: windows\ncategory: ps_script',
        `sel:\n  ScriptBlockText|contains: [${values}]\ncondition: sel`,
      ) +
        doc(
          'small',
          'product: windows\ncategory: ps_script',
          "sel:\n  ScriptBlockText|contains: 'invoke-x'\ncondition: sel",
        ),
    );
    const rs = compileRuleSet({ rules: [huge!, small!] });
    const ps = (text: string) =>
      ev({ Channel: 'Microsoft-Windows-PowerShell/Operational', EventID: 4104, ScriptBlockText: text });
    assert.deepEqual(titles(rs, ps('nothing here')), []);
    assert.deepEqual(titles(rs, ps('x LIT000011999 y')), ['huge/powershell']);
    assert.deepEqual(titles(rs, ps('Invoke-X')), ['small/powershell']);
    const stats = new Map(rs.stats().map((s) => [s.rule.title, s.evaluations]));
    assert.equal(stats.get('huge'), 3, 'over budget: evaluated on every event');
    assert.equal(stats.get('small'), 1, 'still anchored');
  });

  test('filters apply to the rules they name and cover; a filter that applies nowhere is reported', () => {
    const filters = loadRules(
      `title: no admins
logsource:
  product: windows
  service: security
filter:
  rules: any
  admins:
    TargetUserName|startswith: 'adm_'
  condition: not admins
---
title: for nothing
logsource:
  product: windows
filter:
  rules: [no-such-rule]
  x:
    a: b
  condition: not x
`,
      'f.yml',
    ).filters;
    const rs = compileRuleSet({ rules: all, filters });
    assert.deepEqual(
      titles(rs, ev({ Channel: 'Security', EventID: 4624, LogonType: 10, TargetUserName: 'adm_x' })),
      [],
    );
    assert.deepEqual(
      titles(rs, ev({ Channel: 'Security', EventID: 4624, LogonType: 10, TargetUserName: 'bob' })),
      ['logon/security'],
    );
    assert.deepEqual(
      rs.diagnostics.filter((d) => d.code === 'filter.unused').map((d) => d.title),
      ['for nothing'],
    );
  });

  test('options are checked at the door', () => {
    assert.throws(
      () => compileRuleSet({ rules: all, options: { timingSample: -1 } }),
      (e: unknown) =>
        e instanceof TaeError && e.code === 'INVALID_ARGUMENT' && /timingSample/.test(e.message),
    );
  });
});
