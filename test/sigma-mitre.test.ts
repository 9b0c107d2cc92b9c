/** MITRE ATT&CK read off Sigma tags (src/sigma/mitre.ts), the one reading the CLI and the report share. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mitreText } from '../src/report/mitre.js';
import { mitreOf } from '../src/sigma/index.js';

test('tactics by name in the rule order, technique ids as ATT&CK writes them, groups and software left out', () => {
  const m = mitreOf([
    'attack.T1059.001',
    'attack.execution',
    'attack.defense_evasion',
    'attack.g0016',
    'attack.s0002',
    'attack.stealth',
    'attack.t1027',
    'attack.execution',
    'cve.2021-44228',
    'attack.t1059.001',
  ]);
  assert.deepEqual(m, {
    tactics: ['execution', 'defense-evasion', 'stealth'],
    techniques: ['T1059.001', 'T1027'],
  });
  assert.equal(mitreText(m), 'Execution, Defense Evasion, Stealth · T1059.001, T1027');
  assert.equal(mitreText(mitreOf(['attack.command-and-control'])), 'Command and Control');
  assert.deepEqual(mitreOf(undefined), { tactics: [], techniques: [] });
});
