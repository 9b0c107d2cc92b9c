/** The 32 conformance cases of sigma-semantics.md §5.2, one test each. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compile, matches, rejection } from './sigma-fixtures/rules.js';

const R = String.raw;

describe('sigma conformance (§5.2)', () => {
  test('1: a map ANDs its fields and strings compare case-insensitively', () => {
    const rule = compile('sel:\n  EventID: 4688\n  CommandLine|contains: whoami\ncondition: sel');
    assert.equal(matches(rule, { EventID: 4688, CommandLine: R`C:\x\WHOAMI.exe /all` }), true);
    assert.equal(matches(rule, { EventID: 4689, CommandLine: 'whoami' }), false);
  });

  test('2: a value list ORs its values', () => {
    const rule = compile(R`sel:
  Image|endswith: ['\a.exe', '\b.exe']
condition: sel`);
    assert.equal(matches(rule, { Image: R`C:\B.EXE` }), true);
    assert.equal(matches(rule, { Image: R`C:\c.exe` }), false);
  });

  test('3: a list of maps ORs the maps', () => {
    const rule = compile(R`sel:
  - Image|endswith: '\x.exe'
  - Description|contains: 'Test'
condition: sel`);
    assert.equal(matches(rule, { Description: 'a test b' }), true);
    assert.equal(matches(rule, { Image: R`C:\y.exe` }), false);
  });

  test('4: a plain value matches the whole field value, case-insensitively', () => {
    const rule = compile(R`sel:
  Image: 'C:\Windows\System32\cmd.exe'
condition: sel`);
    assert.equal(matches(rule, { Image: R`c:\windows\system32\CMD.EXE` }), true);
    assert.equal(matches(rule, { Image: R`C:\Windows\System32\cmd.exe.bak` }), false);
  });

  test('5: ? matches exactly one character', () => {
    const rule = compile("sel:\n  Name: 'prog?.exe'\ncondition: sel");
    assert.equal(matches(rule, { Name: 'progA.exe' }), true);
    assert.equal(matches(rule, { Name: 'prog.exe' }), false);
    assert.equal(matches(rule, { Name: 'progAB.exe' }), false);
  });

  test('6: escaped \\* and \\? are literal, \\\\* is a backslash then a wildcard', () => {
    const rule = compile(R`sel:
  V: 'escaped\*\?\\*?'
condition: sel`);
    assert.equal(matches(rule, { V: R`escaped*?\ZZx` }), true);
    assert.equal(matches(rule, { V: R`escapedAB\ZZx` }), false);
  });

  test('7: a trailing single backslash is literal', () => {
    const rule = compile(R`sel:
  P|endswith: '\Windows\'
condition: sel`);
    assert.equal(matches(rule, { P: 'C:\\Windows\\' }), true);
    assert.equal(matches(rule, { P: R`C:\Windows` }), false);
  });

  test('8: \\* after a path separator is a literal star; \\\\* is backslash + wildcard', () => {
    const literal = compile(R`sel:
  P: 'C:\Temp\*'
condition: sel`);
    assert.equal(matches(literal, { P: 'C:\\Temp*' }), true);
    assert.equal(matches(literal, { P: R`C:\Temp\a.exe` }), false);
    const wildcard = compile(R`sel:
  P: 'C:\Temp\\*'
condition: sel`);
    assert.equal(matches(wildcard, { P: R`C:\Temp\a.exe` }), true);
  });

  test('9: * crosses newlines', () => {
    const cmd = compile("sel:\n  CommandLine|contains: 'cmd.exe /c * > *'\ncondition: sel");
    assert.equal(matches(cmd, { CommandLine: 'x cmd.exe /c whoami\n > out.txt' }), true);
    const script = compile("sel:\n  Script|contains: 'a*b'\ncondition: sel");
    assert.equal(matches(script, { Script: 'xa\r\n\nbx' }), true);
  });

  test('10: |all ANDs the values of one field', () => {
    const rule = compile("sel:\n  CommandLine|contains|all: ['-enc', 'powershell']\ncondition: sel");
    assert.equal(matches(rule, { CommandLine: 'powershell -enc AAA' }), true);
    assert.equal(matches(rule, { CommandLine: 'powershell -e AAA' }), false);
  });

  test('11: windash accepts /, en dash, em dash and horizontal bar for a leading dash', () => {
    const rule = compile("sel:\n  CommandLine|windash|contains: ' -f '\ncondition: sel");
    for (const cmd of ['x /f y', 'x \u2013f y', 'x \u2014f y', 'x \u2015f y', 'x -f y'])
      assert.equal(matches(rule, { CommandLine: cmd }), true, cmd);
    assert.equal(matches(rule, { CommandLine: 'x f y' }), false);
  });

  test('12: windash alternatives stay OR inside each value while |all ANDs the values', () => {
    const rule = compile("sel:\n  CommandLine|windash|contains|all: ['-foo', '-bar']\ncondition: sel");
    assert.equal(matches(rule, { CommandLine: '/foo \u2013bar' }), true);
    assert.equal(matches(rule, { CommandLine: '/foo' }), false);
  });

  test('13: windash varies only word-initial dashes', () => {
    const rule = compile("sel:\n  V|windash: '-param-1 -param2'\ncondition: sel");
    assert.equal(matches(rule, { V: '/param-1 \u2013param2' }), true);
    assert.equal(matches(rule, { V: '-param/1 -param2' }), false);
  });

  test('14: base64offset|contains matches the three offsets, case-sensitively', () => {
    const rule = compile("sel:\n  CommandLine|base64offset|contains: 'foobar'\ncondition: sel");
    for (const enc of ['Zm9vYmFy', 'Zvb2Jhc', 'mb29iYX'])
      assert.equal(matches(rule, { CommandLine: `powershell -e xx${enc}yy` }), true, enc);
    assert.equal(matches(rule, { CommandLine: 'zM9VYMFY' }), false);
  });

  test('15: wide|base64offset|contains encodes UTF-16LE before base64', () => {
    const rule = compile("sel:\n  CommandLine|wide|base64offset|contains: 'Invoke-'\ncondition: sel");
    for (const enc of ['SQBuAHYAbwBrAGUALQ', 'kAbgB2AG8AawBlAC0A', 'JAG4AdgBvAGsAZQAtA'])
      assert.equal(matches(rule, { CommandLine: `-enc AAA${enc}BBB` }), true, enc);
  });

  test('16: |re is an unanchored, case-sensitive search', () => {
    const rule = compile(R`sel:
  CommandLine|re: '\s(-u|--user)\s*:'
condition: sel`);
    assert.equal(matches(rule, { CommandLine: 'curl -u : x' }), true);
    assert.equal(matches(rule, { CommandLine: 'CURL -u :' }), true);
    assert.equal(matches(rule, { CommandLine: 'curl -U :' }), false);
  });

  test('17: a leading (?i) and |re|i both make the regex case-insensitive', () => {
    const inline = compile("sel:\n  CommandLine|re: '(?i)echo.*clip'\ncondition: sel");
    const flag = compile("sel:\n  CommandLine|re|i: 'ECHO.*CLIP'\ncondition: sel");
    assert.equal(matches(inline, { CommandLine: 'Echo x | Clip' }), true);
    assert.equal(matches(flag, { CommandLine: 'Echo x | Clip' }), true);
  });

  test('18: |cidr tests IPv4 and IPv6 membership; a network with host bits is rejected', () => {
    const rule = compile(
      "sel:\n  DestinationIp|cidr: '10.0.0.0/8'\nsel6:\n  DestinationIp|cidr: 'fe80::/10'\ncondition: sel or sel6",
    );
    assert.equal(matches(rule, { DestinationIp: '10.1.2.3' }), true);
    assert.equal(matches(rule, { DestinationIp: '11.0.0.1' }), false);
    assert.equal(matches(rule, { DestinationIp: 'fe80::1' }), true);
    assert.equal(matches(rule, { DestinationIp: 'not-an-ip' }), false);
    assert.equal(
      rejection("sel:\n  DestinationIp|cidr: '192.168.1.1/24'\ncondition: sel"),
      'value.invalid_cidr',
    );
  });

  test('19: null matches an absent, null or empty field; an empty string only ""', () => {
    const rule = compile('sel:\n  EventID: 1\nfilter:\n  CommandLine: null\ncondition: sel and not filter');
    assert.equal(matches(rule, { EventID: 1 }), false);
    assert.equal(matches(rule, { EventID: 1, CommandLine: '' }), false);
    assert.equal(matches(rule, { EventID: 1, CommandLine: null }), false);
    assert.equal(matches(rule, { EventID: 1, CommandLine: 'x' }), true);
    const empty = compile("sel:\n  V: ''\ncondition: sel");
    assert.equal(matches(empty, { V: '' }), true);
    assert.equal(matches(empty, {}), false);
    assert.equal(matches(empty, { V: 'x' }), false);
  });

  test('20: |exists tests presence, not value', () => {
    const present = compile('sel:\n  PasswordLastSet|exists: true\ncondition: sel');
    const absent = compile('sel:\n  PasswordLastSet|exists: false\ncondition: sel');
    assert.equal(matches(present, { PasswordLastSet: '' }), true);
    assert.equal(matches(present, {}), false);
    assert.equal(matches(absent, {}), true);
    assert.equal(matches(absent, { PasswordLastSet: '' }), false);
  });

  test('21: unquoted scalars keep their source text (00000429 is not 429)', () => {
    const rule = compile(
      'sel:\n  EventID: 4688\nsel2:\n  Details|contains: 00000429\nsel3:\n  Signed: true\ncondition: sel or sel2 or sel3',
    );
    assert.equal(matches(rule, { EventID: 4688 }), true);
    assert.equal(matches(rule, { EventID: '4688' }), true);
    assert.equal(matches(rule, { Details: 'DWORD (0x00000429)' }), true);
    assert.equal(matches(rule, { Details: 'DWORD (0x00010429)' }), false);
    assert.equal(matches(rule, { Signed: 'true' }), true);
  });

  test('22: |gte compares numbers (hex accepted); a string threshold is rejected', () => {
    const rule = compile('sel:\n  Count|gte: 5\ncondition: sel');
    assert.equal(matches(rule, { Count: '5' }), true);
    assert.equal(matches(rule, { Count: '0x10' }), true);
    assert.equal(matches(rule, { Count: 'abc' }), false);
    assert.equal(matches(rule, { Count: '4' }), false);
    assert.equal(rejection("sel:\n  Count|gt: 'x'\ncondition: sel"), 'value.invalid_type');
  });

  test('23: |fieldref compares two fields of the event', () => {
    const rule = compile('sel:\n  TargetUserName|fieldref: SubjectUserName\ncondition: sel');
    assert.equal(matches(rule, { TargetUserName: 'bob', SubjectUserName: 'bob' }), true);
    assert.equal(matches(rule, { TargetUserName: 'bob', SubjectUserName: 'alice' }), false);
  });

  test('24: |neq negates the whole item, so an absent field matches', () => {
    const rule = compile("sel:\n  User|neq: ['a', 'b']\ncondition: sel");
    assert.equal(matches(rule, { User: 'c' }), true);
    assert.equal(matches(rule, { User: 'A' }), false);
    assert.equal(matches(rule, {}), true);
  });

  test('25: not binds tighter than and, and tighter than or (all 16 assignments)', () => {
    const rule = compile(
      'detection1:\n  a: x\ndetection2:\n  b: x\ndetection3:\n  c: x\ndetection_4:\n  d: x\n' +
        'condition: detection1 and not detection2 or not detection3 and detection_4',
    );
    for (let bits = 0; bits < 16; bits++) {
      const [d1, d2, d3, d4] = [1, 2, 4, 8].map((b) => (bits & b) !== 0) as [
        boolean,
        boolean,
        boolean,
        boolean,
      ];
      const event = { a: d1 ? 'x' : 'y', b: d2 ? 'x' : 'y', c: d3 ? 'x' : 'y', d: d4 ? 'x' : 'y' };
      assert.equal(matches(rule, event), (d1 && !d2) || (!d3 && d4), JSON.stringify(event));
    }
  });

  test('26: selectors: them skips _names, patterns need *, exact names do not prefix-match', () => {
    const defs = 'selection_a:\n  a: x\nselection_b:\n  b: x\nfilter_x:\n  f: x\n_hidden:\n  h: x\n';
    const one = compile(`${defs}condition: 1 of selection_*`);
    assert.equal(matches(one, { b: 'x' }), true);
    assert.equal(matches(one, { f: 'x' }), false);
    const all = compile(`${defs}condition: all of selection_*`);
    assert.equal(matches(all, { a: 'x' }), false);
    assert.equal(matches(all, { a: 'x', b: 'x' }), true);
    const anyThem = compile(`${defs}condition: 1 of them`);
    assert.equal(matches(anyThem, { h: 'x' }), false);
    assert.equal(matches(anyThem, { f: 'x' }), true);
    const allThem = compile(`${defs}condition: all of them`);
    assert.equal(matches(allThem, { a: 'x', b: 'x', f: 'x' }), true);
    const exact = compile('selection:\n  a: x\nselection_extra:\n  b: x\ncondition: 1 of selection');
    assert.equal(matches(exact, { b: 'x' }), false);
    assert.equal(matches(exact, { a: 'x' }), true);
  });

  test('27: a keyword list is a case-insensitive substring search over every value', () => {
    const rule = compile("keywords:\n  - 'event::clear'\n  - 'sekurlsa::'\ncondition: keywords");
    assert.equal(matches(rule, { EventID: 4104, ScriptBlockText: 'Invoke SEKURLSA::logonpasswords' }), true);
    assert.equal(matches(rule, { ScriptBlockText: 'sekurlsa:logonpasswords' }), false);
  });

  test("28: '|all' keywords must all appear, each in any element of a multi-valued field", () => {
    const rule = compile(
      "kw:\n  '|all':\n    - 'OabVirtualDirectory'\n    - ' -ExternalUrl '\ncondition: kw",
    );
    assert.equal(matches(rule, { Data: ['Set-OabVirtualDirectory', 'x -ExternalUrl http://a'] }), true);
    assert.equal(matches(rule, { Data: ['Set-OabVirtualDirectory', 'x'] }), false);
  });

  test('29: a multi-valued field matches when any element does, * crossing CRLF', () => {
    const rule = compile("sel:\n  Data|contains: 'HostApplication=powershell'\ncondition: sel");
    const data = ['Available', 'None', '\tNewEngineState=Available\r\n\tHostApplication=powershell -nop\r\n'];
    assert.equal(matches(rule, { Data: data }), true);
    assert.equal(matches(rule, { Data: ['Available', 'None'] }), false);
  });

  test('30: a rule field matches the event field whose name has spaces', () => {
    const rule = compile("sel:\n  ThreatName|endswith: 'EICAR_Test_File'\ncondition: sel");
    assert.equal(matches(rule, { 'Threat Name': 'Tool:Win32/EICAR_Test_File' }), true);
  });

  test('31: %placeholders% are literal without |expand; |expand without values rejects the rule', () => {
    const rule = compile("sel:\n  CommandLine|contains: '%COMSPEC%'\ncondition: sel");
    assert.equal(matches(rule, { CommandLine: 'cmd /c %comspec% /c x' }), true);
    assert.equal(matches(rule, { CommandLine: 'cmd /c C:\\Windows\\cmd.exe' }), false);
    assert.equal(
      rejection("sel:\n  CommandLine|contains|expand: '%COMSPEC%'\ncondition: sel"),
      'placeholder.unresolved',
    );
  });

  test('32: invalid conditions and modifier chains are load errors', () => {
    const two = 'detection1:\n  a: x\ndetection2:\n  b: x\ndetection3:\n  c: x\n';
    assert.equal(rejection(`${two}condition: detection1 and (detection2 OR detection3)`), 'condition.syntax');
    assert.equal(rejection('sel:\n  a: x\ncondition: sel | count() > 5'), 'condition.aggregation');
    assert.equal(rejection('sel:\n  a: x\ncondition: sel and other'), 'condition.unknown_identifier');
    assert.equal(rejection('sel:\n  a|foo: x\ncondition: sel'), 'modifier.unknown');
    assert.equal(rejection("sel:\n  a|base64: 'a*b'\ncondition: sel"), 'value.wildcard');
    assert.equal(rejection("sel:\n  a|base64|re: 'ab'\ncondition: sel"), 'modifier.invalid_combination');
    assert.equal(rejection("kw:\n  '|exists': true\ncondition: kw"), 'modifier.invalid_combination');
  });
});
