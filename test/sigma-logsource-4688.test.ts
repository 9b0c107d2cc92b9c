/**
 * Windows logsource mapping (sigma-semantics.md §3.4), the Security 4688 variants: translated
 * fields on events written by our EVTX writer and decoded by our decoder, and the pessimistic
 * reading of Sysmon-only fields.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EventDescription, EvtxValue } from '../fixtures/evtx-writer/index.js';
import { mapRule, type SigmaRule, sigmaEventFromEvtx } from '../src/sigma/index.js';
import { base, decode, ev, R, rule, variants } from './helpers/logsource.js';

describe('Security 4688 variants', () => {
  const pc = 'product: windows\ncategory: process_creation';
  const security = (r: SigmaRule) => variants(r).find((v) => v.name === 'security');

  test('Image, ParentImage, LogonId, process ids (decimal → hex), IntegrityLevel (→ SID) and User (domain split) translate', async () => {
    const r = rule(
      pc,
      R`sel:
  Image|endswith: '\whoami.exe'
  ParentImage|endswith: '\cmd.exe'
  LogonId: '0x3e7'
  ProcessId: 420
  ParentProcessId: '4660'
  IntegrityLevel: High
  User: 'NT AUTHORITY\SYSTEM'
condition: sel`,
    );
    const v = security(r)!;
    const data = (over: Record<string, EvtxValue>): EventDescription => ({
      ...base,
      provider: 'Microsoft-Windows-Security-Auditing',
      channel: 'Security',
      eventId: 4688,
      eventData: {
        SubjectUserName: 'SYSTEM',
        SubjectDomainName: 'NT AUTHORITY',
        SubjectLogonId: { type: 'hex64', value: 0x3e7n },
        NewProcessId: { type: 'hex64', value: 420n },
        NewProcessName: R`C:\Windows\System32\whoami.exe`,
        ProcessId: { type: 'hex64', value: 4660n },
        ParentProcessName: R`C:\Windows\System32\cmd.exe`,
        MandatoryLabel: { type: 'sid', value: 'S-1-16-12288' },
        ...over,
      },
    });
    const [hit, lowLabel, otherPid, otherDomain] = await decode([
      data({}),
      data({ MandatoryLabel: { type: 'sid', value: 'S-1-16-8192' } }),
      data({ NewProcessId: { type: 'hex64', value: 421n } }),
      data({ SubjectDomainName: 'CORP' }),
    ]);
    assert.equal(hit!.data.NewProcessId, '0x1a4', 'the decoder renders 4688 ids in hex');
    assert.equal(v.matches(sigmaEventFromEvtx(hit!)), true);
    assert.equal(v.matches(sigmaEventFromEvtx(lowLabel!)), false);
    assert.equal(v.matches(sigmaEventFromEvtx(otherPid!)), false);
    assert.equal(v.matches(sigmaEventFromEvtx(otherDomain!)), false);
    // The Sysmon variant still reads Sysmon's names.
    const sysmon = variants(r).find((x) => x.name === 'sysmon')!;
    assert.equal(sysmon.matches(sigmaEventFromEvtx(hit!)), false);
  });

  test('User values split by modifier: contains looks at both parts, startswith at the domain, endswith at the user', () => {
    const e = ev({
      Channel: 'Security',
      EventID: 4688,
      SubjectDomainName: 'NT AUTHORITY',
      SubjectUserName: 'SYSTEM',
    });
    const m = (item: string) => security(rule(pc, `sel:\n  ${item}\ncondition: sel`))!.matches(e);
    assert.equal(m("User|contains: ['AUTHORI', 'AUTORI']"), true);
    assert.equal(m("User|contains: 'SYST'"), true);
    assert.equal(m(R`User|contains: 'ORITY\SYS'`), true);
    assert.equal(m(R`User|contains: 'ORITY\X'`), false);
    assert.equal(m("User|startswith: 'NT AUTH'"), true);
    assert.equal(m("User|startswith: 'SYS'"), false);
    assert.equal(m(R`User|endswith: '\SYSTEM'`), true);
    assert.equal(m("User|endswith: 'AUTHORITY'"), false);
    assert.equal(m(R`User|contains|all: ['NT', 'THORITY\SYS']`), true);
  });

  test('a variant whose selections need Sysmon-only fields is dropped with those fields as reason', () => {
    const m = mapRule(rule(pc, "sel:\n  OriginalFileName: 'whoami.exe'\ncondition: sel"));
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
    assert.equal(m.dropped.length, 1);
    assert.equal(m.dropped[0]!.code, 'logsource.fields_unavailable');
    assert.match(m.dropped[0]!.message, /selections need OriginalFileName/);
  });

  test('an alternative on a Sysmon-only field folds away and the rest still matches 4688', () => {
    const v = security(
      rule(
        pc,
        R`sel:
  - Image|endswith: '\certutil.exe'
  - OriginalFileName: 'CertUtil.exe'
cli:
  CommandLine|contains: urlcache
condition: sel and cli`,
      ),
    )!;
    assert.deepEqual(v.unavailableFields, ['OriginalFileName']);
    const e = (image: string) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: image,
        CommandLine: 'certutil -urlcache -f http://x',
      });
    assert.equal(v.matches(e(R`C:\Windows\System32\certutil.exe`)), true);
    assert.equal(v.matches(e(R`C:\Temp\renamed.exe`)), false);
  });

  test('an exclusion on a Sysmon-only field never lets a 4688 event through that Sysmon would have excluded', () => {
    // Read as absent, `not filter` would always be true on 4688: every hit a potential false positive.
    const m = mapRule(
      rule(
        pc,
        R`sel:
  Image|endswith: '\rundll32.exe'
filter:
  Hashes|contains: 'IMPHASH=ABC'
condition: sel and not filter`,
      ),
    );
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
    assert.match(m.dropped[0]!.message, /an exclusion depends on Hashes/);
    // Partly unavailable exclusion: it is assumed to hold as far as the unavailable part goes.
    const v = security(
      rule(
        pc,
        R`sel:
  Image|endswith: '\rundll32.exe'
filter:
  ParentImage|endswith: '\legit.exe'
  Company: 'Legit Corp'
condition: sel and not filter`,
      ),
    )!;
    const e = (parent: string) =>
      ev({
        Channel: 'Security',
        EventID: 4688,
        NewProcessName: R`C:\w\rundll32.exe`,
        ParentProcessName: parent,
      });
    assert.equal(v.matches(e(R`C:\x\legit.exe`)), false, 'Sysmon could have excluded it (Company unknown)');
    assert.equal(v.matches(e(R`C:\x\other.exe`)), true, 'no value of Company could exclude it');
  });

  test('a positive null test on a Sysmon-only field does not match 4688 (unknown is not null)', () => {
    const m = mapRule(
      rule(
        pc,
        R`sel:
  Image|endswith: '\a.exe'
  OriginalFileName: null
condition: sel`,
      ),
    );
    assert.ok(m.ok);
    assert.deepEqual(
      m.variants.map((v) => v.name),
      ['sysmon'],
    );
  });
});
