/**
 * Issue 13 (4): every rule name a result shows retrieves its rule. YARA results name a rule
 * by its identifier (`tae_test_file_eicar_string`), which may differ from its file's stem and
 * be one of several rules in a file; Sigma results name a rule by its file stem. Both go
 * through the Engine: a community scan, then the retrieval endpoint with each name shown.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openSqlite } from '../native/sqlite.js';
import { builtinPackDir, INDEX_FILE, openRuleLibrary } from '../src/rules/index.js';
import { Engine } from '../src/service/index.js';
import type { YaraDataElement } from '../src/yara/index.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const linesOf = (path: string) => readFileSync(path, 'utf8').replace(/\n$/, '').split('\n');
const EICAR = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-ANTIVIRUS-', 'TEST-FILE!$H+H*'].join('');

/** Two rules in one file, neither named after it, one declared after a comment mentioning a rule. */
const USER_YARA = `import "math"
// rule commented_out { condition: true }
rule alpha_marker : user { meta: description = "alpha" strings: $a = "ALPHA-MARKER-7" condition: $a } rule beta_marker
{
  strings:
    $b = "rule not_a_rule {"
  condition:
    $b and math.entropy(0, filesize) >= 0
}
`;
const USER_SIGMA = `title: User pack whoami
logsource: {product: windows, category: process_creation}
detection:
  sel: {Image|endswith: '\\whoami-user.exe'}
  condition: sel
level: low
`;

let dir: string;
let engine: Engine;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tae-names-'));
  mkdirSync(join(dir, 'pack', 'yara'), { recursive: true });
  mkdirSync(join(dir, 'pack', 'sigma'), { recursive: true });
  writeFileSync(join(dir, 'pack', 'yara', 'markers.yar'), USER_YARA);
  // A file named `rule.yml`: results once showed its title instead of its name.
  writeFileSync(join(dir, 'pack', 'sigma', 'rule.yml'), USER_SIGMA);
  engine = await Engine.open({ memory: true, rules: { env: {} } });
  await (await engine.rules()).addPack(join(dir, 'pack'), { name: 'user' });
  engine.refreshRules();
});
after(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function ruleColumn(e: YaraDataElement | undefined): string[] {
  assert.ok(e !== undefined && 'Table' in e, `expected a Table, got ${JSON.stringify(e)}`);
  const [header, ...rows] = e.Table.data;
  const at = header!.indexOf('Rule');
  return rows.map((r) => r[at]!);
}

describe('rule names round-trip from results to retrieval', () => {
  test('every YARA rule a community scan shows (builtin and user pack) retrieves its file, line for line', async () => {
    const data = `${EICAR}`;
    const builtin = await engine.yaraData({ test_data: b64(data), operation: 'run_community_rules' });
    const user = await engine.yaraData({
      test_data: b64('xx ALPHA-MARKER-7 rule not_a_rule { xx'),
      operation: 'run_community_rules',
    });
    const names = [...ruleColumn(builtin.results[0]), ...ruleColumn(user.results[0])];
    assert.deepEqual(names.sort(), ['alpha_marker', 'beta_marker', 'tae_test_file_eicar_string']);
    const { results } = await engine.yaraRules({ rule_names: names });
    assert.deepEqual(Object.keys(results).sort(), names);
    const eicarFile = join(builtinPackDir()!, 'yara', 'test_file_eicar_string.yar');
    assert.deepEqual(results.tae_test_file_eicar_string, linesOf(eicarFile));
    assert.deepEqual(results.alpha_marker, linesOf(join(dir, 'pack', 'yara', 'markers.yar')));
    assert.deepEqual(results.beta_marker, linesOf(join(dir, 'pack', 'yara', 'markers.yar')));
  });

  test('a YARA file still answers to its stem; names in comments and strings are no rules', async () => {
    const { results } = await engine.yaraRules({ rule_names: ['test_file_eicar_string', 'markers'] });
    assert.equal(results.markers?.[0], 'import "math"');
    for (const ghost of ['commented_out', 'not_a_rule'])
      await assert.rejects(engine.yaraRules({ rule_names: [ghost] }), { status: 404 });
  });

  test('every Sigma rule a community run shows retrieves its file, line for line', async () => {
    const events = [
      {
        Channel: 'Microsoft-Windows-Sysmon/Operational',
        EventID: 1,
        Image: 'C:\\Windows\\System32\\whoami-user.exe',
      },
      {
        Channel: 'Microsoft-Windows-Sysmon/Operational',
        EventID: 1,
        Image: 'C:\\Windows\\System32\\whoami.exe',
        CommandLine: 'whoami /priv',
      },
    ];
    const r = await engine.sigmaData({
      test_data: b64(events.map((e) => JSON.stringify(e)).join('\n')),
      operation: 'run_community_rules',
    });
    const table = r.results[0];
    assert.ok(table?.type === 'Table', JSON.stringify(r.results));
    const names = table.data.slice(1).map((row) => row[0]!);
    assert.ok(names.includes('rule'), names.join());
    assert.ok(names.length >= 2, names.join());
    const { results } = await engine.sigmaRules({ rule_names: names });
    assert.deepEqual(results.rule, linesOf(join(dir, 'pack', 'sigma', 'rule.yml')));
    for (const n of names) assert.ok((results[n]?.length ?? 0) > 3, n);
  });

  test('an index written before rule names were kept answers YARA rule names after reopening', async () => {
    const dataDir = join(dir, 'index');
    const first = await openRuleLibrary({ dataDir, packs: [join(dir, 'pack')], env: {} });
    first.close();
    // The index as the previous version left it: no rule_names table.
    const db = openSqlite(join(dataDir, INDEX_FILE));
    db.exec('DROP TABLE rule_names');
    db.close();
    const again = await openRuleLibrary({ dataDir, env: {} });
    try {
      const { results } = again.get('yara', ['beta_marker', 'tae_test_file_eicar_string', 'markers']);
      assert.deepEqual(results.beta_marker, linesOf(join(dir, 'pack', 'yara', 'markers.yar')));
      assert.equal(results.tae_test_file_eicar_string?.[0], 'rule tae_test_file_eicar_string : test');
    } finally {
      again.close();
    }
  });
});
