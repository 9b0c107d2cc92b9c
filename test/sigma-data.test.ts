/** runSigmaSync (runSigma's work, on the calling thread): the Sigma data endpoint over supplied JSON and XML, custom and community rules. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isTaeError, type TaeError } from '../src/errors/index.js';
import { detectionMatcher, loadRules, runSigmaSync, type SigmaDataRequest } from '../src/sigma/index.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const ENCODED_PS = `title: Encoded PowerShell
id: 6f9b6a8e-0f53-4c43-9d6b-2d0c3a1f7e11
description: PowerShell started with an encoded command
author: tae tests
tags: [attack.execution, attack.t1059.001]
level: high
logsource: {product: windows, category: process_creation}
detection:
  selection:
    Image|endswith: '\\powershell.exe'
    CommandLine|contains: ' -enc'
  condition: selection
`;

const SERVICE = `title: Service installed
logsource: {product: windows, service: system}
detection:
  selection: {EventID: 7045}
  condition: selection
`;

const sysmonXml = (image: string, cmd: string, id = 1) =>
  `<Event xmlns="http://schemas.microsoft.com/win/2004/08/events/event"><System><Provider Name="Microsoft-Windows-Sysmon" Guid="{5770385f-c22a-43e0-bf4c-06f5698ffbd9}"/><EventID>${id}</EventID><TimeCreated SystemTime="2026-01-01T10:00:00.1234567Z"/><EventRecordID>42</EventRecordID><Channel>Microsoft-Windows-Sysmon/Operational</Channel><Computer>ws1</Computer></System><EventData><Data Name="Image">${image}</Data><Data Name="CommandLine">${cmd}</Data></EventData></Event>`;

/** Hostile bodies: the request's type is what the endpoint accepts, not what it is sent. */
function fails(request: object, status: number, message: string) {
  assert.throws(
    () => runSigmaSync(request as SigmaDataRequest),
    (e: unknown) => {
      assert.ok(isTaeError(e));
      const err = e as TaeError;
      assert.deepEqual([err.status, err.message, err.bodyFormat], [status, message, 'text']);
      return true;
    },
  );
}

describe('runSigma (the Sigma data endpoint)', () => {
  const flat = b64(
    JSON.stringify({
      Image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      CommandLine: 'powershell -enc SQBFAFgA',
    }),
  );

  test('a custom rule matching flat JSON gives a Table with the Rule column', () => {
    const r = runSigmaSync({ test_data: flat, operation: 'run_rule', rule: b64(ENCODED_PS) });
    assert.deepEqual(r, {
      results: [
        {
          type: 'Table',
          title: 'Sigma Analysis Results',
          data: [['Rule'], ['Encoded PowerShell']],
          category: 'Sigma',
        },
      ],
    });
  });

  test('no match is a Table with only its header row', () => {
    const other = b64(JSON.stringify({ Image: 'C:\\x\\cmd.exe', CommandLine: 'cmd /c dir' }));
    const r = runSigmaSync({ test_data: other, operation: 'run_rule', rule: b64(ENCODED_PS) });
    assert.deepEqual(r.results[0], {
      type: 'Table',
      title: 'Sigma Analysis Results',
      data: [['Rule']],
      category: 'Sigma',
    });
  });

  test('event-log XML, several events, resolves System and EventData fields', () => {
    const xml = `<Events>${sysmonXml('C:\\a\\cmd.exe', 'cmd')}${sysmonXml('C:\\w\\powershell.exe', 'powershell.exe -enc AAAA')}</Events>`;
    const r = runSigmaSync({ test_data: b64(xml), operation: 'run_rule', rule: b64(ENCODED_PS) });
    assert.deepEqual(r.results[0]?.type === 'Table' && r.results[0].data, [['Rule'], ['Encoded PowerShell']]);
    const byChannel = ENCODED_PS.replace(
      "Image|endswith: '\\\\powershell.exe'",
      "Channel: 'Microsoft-Windows-Sysmon/Operational'\n    Computer: WS1",
    );
    const r2 = runSigmaSync({ test_data: b64(xml), operation: 'run_rule', rule: b64(byChannel) });
    assert.deepEqual(r2.results[0]?.type === 'Table' && r2.results[0].data.length, 2);
  });

  test("nested JSON is addressed by dotted paths, and the crate's event JSON by field names", () => {
    const nested = b64(
      JSON.stringify({ process: { image: 'x\\powershell.exe', args: { line: 'p -enc Z' } } }),
    );
    const dotted = `title: dotted\nlogsource: {product: x}\ndetection:\n  s:\n    process.image|endswith: powershell.exe\n    process.args.line|contains: -enc\n  condition: s\n`;
    assert.equal(
      runSigmaSync({ test_data: nested, operation: 'run_rule', rule: b64(dotted) }).results[0]?.type,
      'Table',
    );
    const crate = {
      Event: {
        '#attributes': { xmlns: 'http://schemas.microsoft.com/win/2004/08/events/event' },
        System: {
          Provider: { '#attributes': { Name: 'Service Control Manager' } },
          EventID: { '#attributes': { Qualifiers: 16384 }, '#text': 7045 },
          Channel: 'System',
          TimeCreated: { '#attributes': { SystemTime: '2026-01-01T00:00:00.000000Z' } },
        },
        EventData: { ServiceName: 'evil', ImagePath: 'C:\\evil.exe' },
      },
    };
    const r = runSigmaSync({
      test_data: b64(JSON.stringify([crate])),
      operation: 'run_rule',
      rule: b64(SERVICE),
    });
    assert.deepEqual(r.results[0]?.type === 'Table' && r.results[0].data, [['Rule'], ['Service installed']]);
  });

  test('an event naming its Channel is judged through the log-source variants (4688 translation)', () => {
    const security4688 = {
      Channel: 'Security',
      EventID: 4688,
      NewProcessName: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      CommandLine: 'powershell.exe -enc SQBFAFgA',
    };
    const run = (event: object, rule: string) =>
      runSigmaSync({ test_data: b64(JSON.stringify(event)), operation: 'run_rule', rule: b64(rule) })
        .results[0];
    const table = (r: ReturnType<typeof run>) => (r?.type === 'Table' ? r.data : undefined);
    assert.deepEqual(table(run(security4688, ENCODED_PS)), [['Rule'], ['Encoded PowerShell']]);
    // The same fields on a channel process_creation does not cover: no match.
    assert.deepEqual(table(run({ ...security4688, Channel: 'System' }, ENCODED_PS)), [['Rule']]);
    // A service rule does not fire on another channel's event with the same id.
    assert.deepEqual(table(run({ Channel: 'Security', EventID: 7045 }, SERVICE)), [['Rule']]);
    assert.deepEqual(table(run({ Channel: 'System', EventID: 7045 }, SERVICE)), [
      ['Rule'],
      ['Service installed'],
    ]);
  });

  test('a rule with a log source we do not know is judged by its detection, even on a Windows event', () => {
    const custom = `title: In-house source\nlogsource: {product: windows, category: acme_agent}\ndetection:\n  s: {EventID: 4242}\n  condition: s\n`;
    const linux = `title: Linux only\nlogsource: {product: linux, service: auth}\ndetection:\n  s: {EventID: 4242}\n  condition: s\n`;
    const event = b64(JSON.stringify({ Channel: 'Application', EventID: 4242 }));
    const table = (rule: string) => {
      const r = runSigmaSync({ test_data: event, operation: 'run_rule', rule: b64(rule) }).results[0];
      return r?.type === 'Table' ? r.data : undefined;
    };
    assert.deepEqual(table(custom), [['Rule'], ['In-house source']]);
    assert.deepEqual(table(linux), [['Rule']], 'a non-Windows rule does not judge a Windows event');
  });

  test('JSON lines are read one event per line', () => {
    const lines = [{ EventID: 1 }, { EventID: 7045 }].map((e) => JSON.stringify(e)).join('\n');
    const r = runSigmaSync({ test_data: b64(lines), operation: 'run_rule', rule: b64(SERVICE) });
    assert.deepEqual(r.results[0]?.type === 'Table' && r.results[0].data, [['Rule'], ['Service installed']]);
  });

  test('an invalid rule is an in-band Error element', () => {
    const bad = ENCODED_PS.replace('condition: selection', 'condition: selection and');
    const r = runSigmaSync({ test_data: flat, operation: 'run_rule', rule: b64(bad) });
    assert.equal(r.results.length, 1);
    assert.equal(r.results[0]?.type, 'Error');
    assert.match(r.results[0]?.type === 'Error' ? r.results[0].message : '', /^Invalid Sigma rule format: /);
    const yaml = runSigmaSync({ test_data: flat, operation: 'run_rule', rule: b64('title: [unclosed') });
    assert.equal(yaml.results[0]?.type, 'Error');
  });

  test('community rules give Rule, Description, Author, Tags and Level', () => {
    const loaded = loadRules(ENCODED_PS, 'rules/windows/proc_creation_win_powershell_encoded.yml');
    const r = runSigmaSync(
      { test_data: flat, operation: 'run_community_rules' },
      { community: () => detectionMatcher(loaded.rules) },
    );
    assert.deepEqual(r.results, [
      {
        type: 'Table',
        title: 'Sigma Analysis Results',
        data: [
          ['Rule', 'Description', 'Author', 'Tags', 'Level'],
          [
            'proc_creation_win_powershell_encoded',
            'PowerShell started with an encoded command',
            'tae tests',
            'attack.execution, attack.t1059.001',
            'high',
          ],
        ],
        category: 'Sigma',
      },
    ]);
  });

  test("a community rule from a pack's top folder is named by its file stem, not the pack label", () => {
    const loaded = loadRules(ENCODED_PS, 'mypack:proc_creation_win_powershell_encoded.yml');
    const r = runSigmaSync(
      { test_data: flat, operation: 'run_community_rules' },
      { community: detectionMatcher(loaded.rules) },
    );
    assert.equal(
      r.results[0]?.type === 'Table' && r.results[0].data[1]?.[0],
      'proc_creation_win_powershell_encoded',
    );
  });

  test('a correlation in the custom rule text reports its own title', () => {
    const text = `${SERVICE.replace('title: Service installed', 'title: Service installed\nname: svc')}---
title: Many services
correlation:
  type: event_count
  rules: [svc]
  group-by: [Computer]
  timespan: 10m
  condition: {gte: 2}
`;
    const ev = (m: number) => ({ EventID: 7045, Computer: 'h', UtcTime: `2026-01-01 10:0${m}:00.000` });
    const data = b64(JSON.stringify([ev(0), ev(1)]));
    const r = runSigmaSync({ test_data: data, operation: 'run_rule', rule: b64(text) });
    assert.deepEqual(r.results[0]?.type === 'Table' && r.results[0].data, [['Rule'], ['Many services']]);
  });

  test('bad requests fail with the endpoint status, exact message and a text body', () => {
    fails({ operation: 'run_rule', rule: b64(SERVICE) }, 400, 'Invalid test data format');
    fails(
      { test_data: 'not base64!', operation: 'run_rule', rule: b64(SERVICE) },
      400,
      'Invalid test data format',
    );
    fails(
      { test_data: b64('{"a": '), operation: 'run_rule', rule: b64(SERVICE) },
      400,
      'Invalid test data format',
    );
    fails(
      { test_data: b64('<Event><System></Event>'), operation: 'run_rule', rule: b64(SERVICE) },
      400,
      'Invalid test data format',
    );
    fails(
      { test_data: b64('[1, 2]'), operation: 'run_rule', rule: b64(SERVICE) },
      400,
      'Invalid test data format',
    );
    fails({ test_data: flat, operation: 'run_rule' }, 422, 'Rule is required');
    fails({ test_data: flat, operation: 'run_rule', rule: '' }, 422, 'Rule is required');
    fails({ test_data: flat, operation: 'scan' }, 400, 'Invalid operation');
  });

  test('a DOCTYPE (entity bomb) in XML test data is refused, not expanded', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><Event><System><EventID>&lol2;</EventID></System></Event>`;
    fails(
      { test_data: b64(bomb), operation: 'run_rule', rule: b64(SERVICE) },
      400,
      'Invalid test data format',
    );
  });
});
