/** `tae rules` from source: add, list, get and remove against a temporary index, with the CLI's exit codes. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const MAIN = join(import.meta.dirname, '..', 'src', 'cli', 'main.ts');
const dir = mkdtempSync(join(tmpdir(), 'tae-rules-cli-'));
const home = join(dir, 'home');
const PACK = join(dir, 'team-rules');
mkdirSync(PACK);
const RULE = [
  'rule team_marker',
  '{',
  '    strings:',
  '        $a = "team-marker"',
  '    condition:',
  '        $a',
  '}',
];
writeFileSync(join(PACK, 'team_marker_strings.yar'), `${RULE.join('\r\n')}\r\n`);

const tae = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'rules', ...args], {
    encoding: 'utf8',
    env: { ...process.env, TAE_HOME: '', XDG_DATA_HOME: join(dir, 'xdg'), ...env },
  });

test('tae rules add, list, get and remove work on the index in --data-dir or $TAE_HOME', () => {
  const add = tae(['add', PACK, '--data-dir', home]);
  assert.equal(add.status, 0, add.stderr);
  const report = JSON.parse(add.stdout) as { pack: { name: string; yara: number }; added: number };
  assert.deepEqual([report.pack.name, report.pack.yara, report.added], ['team-rules', 1, 1]);
  assert.ok(existsSync(join(home, 'rule-library.sqlite')));

  const list = tae(['list'], { TAE_HOME: home });
  assert.equal(list.status, 0, list.stderr);
  const packs = (JSON.parse(list.stdout) as { packs: { name: string }[] }).packs.map((p) => p.name);
  assert.deepEqual(packs, ['builtin', 'team-rules']);

  const get = tae(['get', 'yara', 'team_marker_strings', 'test_file_eicar_string', '--data-dir', home]);
  assert.equal(get.status, 0, get.stderr);
  const { results } = JSON.parse(get.stdout) as { results: Record<string, string[]> };
  assert.deepEqual(Object.keys(results), ['team_marker_strings', 'test_file_eicar_string']);
  assert.deepEqual(results.team_marker_strings, RULE);

  const remove = tae(['remove', 'team-rules', '--data-dir', home]);
  assert.equal(remove.status, 0, remove.stderr);
  const gone = tae(['get', 'yara', 'team_marker_strings', '--data-dir', home]);
  assert.equal(gone.status, 3);
  assert.equal(gone.stderr, 'tae: One or more rules not found: team_marker_strings\n');
});

test('tae rules: usage errors exit 2, a missing pack exits 3, and the per-user directory is the default', () => {
  const badKind = tae(['get', 'lua', 'x']);
  assert.equal(badKind.status, 2);
  const badName = tae(['get', 'sigma', 'a/b']);
  assert.equal(badName.status, 2);
  assert.equal(badName.stderr, 'tae: Invalid rule names provided\n');
  const missing = tae(['add', join(dir, 'nowhere')]);
  assert.equal(missing.status, 3);
  assert.match(missing.stderr, /^tae: rule pack not found: /);
  assert.ok(
    existsSync(join(dir, 'xdg', 'threat-analysis-engine', 'rule-library.sqlite')),
    'default under XDG_DATA_HOME',
  );
});
