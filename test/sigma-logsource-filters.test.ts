/**
 * Windows logsource mapping (sigma-semantics.md §3.4): antivirus and forwarded events, filters
 * (pySigma semantics), and rendered variants that reload with the same verdicts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  loadRules,
  mapRule,
  type RuleVariant,
  type SigmaEvent,
  type SigmaFilter,
  sigmaEventFromEvtx,
} from '../src/sigma/index.js';
import { base, DEFENDER, decode, ev, PS, R, rule, SYSMON, variants } from './helpers/logsource.js';

describe('antivirus and forwarded events', () => {
  test('antivirus renames Signature to ThreatName and Filename to Path, found through Defender spaced names', async () => {
    const [v] = variants(
      rule(
        'category: antivirus',
        R`sel:
  Signature|contains: 'Mimikatz'
  Filename|endswith: '.exe'
condition: sel`,
      ),
    );
    const [e] = await decode([
      {
        ...base,
        provider: 'Microsoft-Windows-Windows Defender',
        channel: DEFENDER,
        eventId: 1116,
        eventData: { 'Threat Name': 'HackTool:Win32/Mimikatz.D', Path: R`file:_C:\t\m.exe` },
      },
    ]);
    assert.equal(v!.matches(sigmaEventFromEvtx(e!)), true);
    assert.equal(
      v!.matches(ev({ Channel: DEFENDER, EventID: 1151, ThreatName: 'Mimikatz', Path: 'm.exe' })),
      false,
    );
  });

  test('ForwardedEvents match by provider where §3.4 names one, and only there', () => {
    const [sysmon] = variants(
      rule('product: windows\ncategory: image_load', "sel:\n  ImageLoaded|endswith: 'x.dll'\ncondition: sel"),
    );
    const fwd = (provider: string, id: number, extra: Record<string, unknown> = {}) =>
      ev({ Channel: 'ForwardedEvents', Provider_Name: provider, EventID: id, ...extra });
    assert.equal(sysmon!.matches(fwd('Microsoft-Windows-Sysmon', 7, { ImageLoaded: R`C:\x.dll` })), true);
    assert.equal(sysmon!.matches(fwd('Other', 7, { ImageLoaded: R`C:\x.dll` })), false);
    const [sec] = variants(
      rule('product: windows\nservice: security', 'sel:\n  EventID: [1102, 4624]\ncondition: sel'),
    );
    assert.equal(sec!.matches(fwd('Microsoft-Windows-Eventlog', 1102)), true);
    assert.equal(
      sec!.matches(fwd('Microsoft-Windows-Eventlog', 4624)),
      false,
      'Eventlog stands for Security only in 1102',
    );
    assert.equal(sec!.matches(fwd('Microsoft-Windows-Security-Auditing', 4624)), true);
    const [sys] = variants(
      rule('product: windows\nservice: system', 'sel:\n  EventID: 7045\ncondition: sel'),
    );
    assert.equal(sys!.matches(fwd('Service Control Manager', 7045)), false);
    const [off] = variants(
      rule('product: windows\ncategory: image_load', "sel:\n  ImageLoaded|endswith: 'x.dll'\ncondition: sel"),
      {
        forwardedEvents: false,
      },
    );
    assert.equal(off!.matches(fwd('Microsoft-Windows-Sysmon', 7, { ImageLoaded: R`C:\x.dll` })), false);
  });
});

describe('filters (pySigma semantics)', () => {
  const target = rule(
    'product: windows\ncategory: process_creation',
    "sel:\n  Image|endswith: '.exe'\ncondition: sel",
    'name: my_rule\n',
  );
  const filterDoc = (rules: string, logsource = 'product: windows\n  category: process_creation') =>
    loadRules(
      `title: f\nlogsource:\n  ${logsource}\nfilter:\n  rules: ${rules}\n  sel:\n    User|startswith: 'adm_'\n  condition: not sel\n`,
      'f.yml',
    ).filters[0]!;
  const sysmonEvent = (user: string) =>
    ev({ Channel: SYSMON, EventID: 1, Image: R`C:\a.exe`, User: `CORP\\${user}` });
  const sysmonOf = (filters: SigmaFilter[]) =>
    variants(target, { filters }).find((v) => v.name === 'sysmon')!;

  test('a filter naming the rule by id, by name or with any is ANDed with its condition', () => {
    for (const rules of ['[11111111-1111-1111-1111-111111111111]', '[my_rule]', 'any']) {
      const v = sysmonOf([filterDoc(rules)]);
      assert.equal(v.filters.length, 1, rules);
      assert.equal(v.matches(sysmonEvent('bob')), true);
      assert.equal(
        v.matches(sysmonEvent('adm_bob')),
        true,
        'User is DOMAIN\\user: startswith sees the domain',
      );
    }
    const v = sysmonOf([
      loadRules(
        "title: f\nlogsource:\n  category: process_creation\nfilter:\n  rules: any\n  sel:\n    User|endswith: '\\adm_bob'\n  condition: not sel\n",
        'f.yml',
      ).filters[0]!,
    ]);
    assert.equal(v.matches(sysmonEvent('adm_bob')), false);
    assert.equal(v.matches(sysmonEvent('carol')), true);
  });

  test('a filter for another rule or a logsource the rule is not in does not apply', () => {
    assert.equal(sysmonOf([filterDoc('[other_rule]')]).filters.length, 0);
    assert.equal(sysmonOf([filterDoc('any', 'product: windows\n  category: image_load')]).filters.length, 0);
  });

  test('filter fields are renamed with the rule in the 4688 variant', () => {
    const f = loadRules(
      "title: f\nlogsource:\n  product: windows\nfilter:\n  rules: any\n  sel:\n    ParentImage|endswith: '\\svchost.exe'\n  condition: not sel\n",
      'f.yml',
    ).filters[0]!;
    const v = variants(target, { filters: [f] }).find((x) => x.name === 'security')!;
    const e = (parent: string) =>
      ev({ Channel: 'Security', EventID: 4688, NewProcessName: R`C:\a.exe`, ParentProcessName: parent });
    assert.equal(v.matches(e(R`C:\w\svchost.exe`)), false);
    assert.equal(v.matches(e(R`C:\w\explorer.exe`)), true);
  });
});

describe('rendered variants', () => {
  const roundTrip = (v: RuleVariant, events: SigmaEvent[]) => {
    const text = v.renderYaml().join('\n');
    const back = loadRules(text, 'rendered.yml');
    assert.deepEqual(back.diagnostics, [], text);
    const again = back.rules[0]!;
    assert.equal(again.logsource.service, v.service);
    let hits = 0;
    for (const e of events) {
      const want = v.matches(e);
      assert.equal(again.matches(e), want, `${text}\n${JSON.stringify([...e.values()])}`);
      if (want) hits++;
    }
    return { text, hits };
  };

  test('a 4688 variant renders with service security, the injected selection and renamed fields, and reloads to the same verdicts', () => {
    const r = rule(
      'product: windows\ncategory: process_creation',
      R`selection:
  Image|endswith: '\net.exe'
  User|contains|all: ['AUTHOR', 'ITY\SYS']
  IntegrityLevel: [High, 'S-1-16-16384']
filter_main:
  - OriginalFileName: 'x'
  - ParentImage|contains: 'legit'
condition: selection and not 1 of filter_*`,
    );
    const m = mapRule(r);
    assert.ok(m.ok);
    const sec = m.variants.find((v) => v.name === 'security');
    assert.equal(sec, undefined, 'the OR-ed exclusion on OriginalFileName could always have held');
    const r2 = rule(
      'product: windows\ncategory: process_creation',
      R`selection:
  Image|endswith: '\net.exe'
  User|contains|all: ['NT', 'AUTH']
  IntegrityLevel: [High, 'S-1-16-16384']
filter_main:
  ParentImage|contains: 'legit'
condition: selection and not 1 of filter_*`,
    );
    const v = variants(r2).find((x) => x.name === 'security')!;
    const events = [
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-12288', R`C:\p.exe`],
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-8192', R`C:\p.exe`],
      ['NT AUTHORITY', 'SYSTEM', 'S-1-16-16384', R`C:\legit\p.exe`],
      ['CORP', 'SYSTEM', 'S-1-16-12288', R`C:\p.exe`],
    ].map(([domain, user, label, parent]) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: R`C:\Windows\net.exe`,
        SubjectDomainName: domain,
        SubjectUserName: user,
        MandatoryLabel: label,
        ParentProcessName: parent,
      }),
    );
    const { text, hits } = roundTrip(v, [...events, ev({ Channel: SYSMON, EventID: 1 })]);
    assert.equal(hits, 1);
    assert.match(text, /service: "security"/);
    assert.match(text, /_logsource/);
    assert.match(text, /NewProcessName\|endswith/);
    assert.match(text, /"S-1-16-12288"/, 'High became its SID');
    assert.match(text, /_selection_part2:/, 'two AND-ed items on one key were split into identifiers');
    assert.doesNotMatch(text, /\bImage\|/);
  });

  test('merged filters, windows-only rules and odd strings survive the round trip', () => {
    const f = loadRules(
      "title: f\nlogsource:\n  product: windows\nfilter:\n  rules: any\n  a:\n    CommandLine|contains: 'ok'\n  condition: not 1 of them\n",
      'f.yml',
    ).filters[0]!;
    const r = rule(
      'product: windows\ncategory: ps_script',
      'sel:\n  ScriptBlockText|contains: ["a\\"b", "line\\nbreak", "tab\\t", "00000429", "*wild?card*"]\nkw:\n  - "x:y"\ncondition: 1 of them',
    );
    const [v] = variants(r, { filters: [f] });
    const e = (text: string, extra: Record<string, unknown> = {}) =>
      ev({ Channel: PS[0], EventID: 4104, ScriptBlockText: text, ...extra });
    const { hits } = roundTrip(v!, [
      e('x a"b y'),
      e('line\nbreak'),
      e('tab\t'),
      e('00000429'),
      e('XwildQcardX'),
      e('x:y'),
      e('nothing'),
      e('a"b', { CommandLine: 'ok' }),
    ]);
    assert.equal(hits, 6);
    const [all] = variants(rule('product: windows', "kw:\n  - 'sekurlsa::'\ncondition: kw"));
    roundTrip(all!, [
      ev({ Channel: 'System', EventID: 1, X: 'sekurlsa::x' }),
      ev({ Channel: 'System', EventID: 1 }),
    ]);
  });
});
