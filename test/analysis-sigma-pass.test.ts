/** The job's and `tae analyze`'s event pipeline: duplicates, rule matches, and `generate` for correlations. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAnalyzer, createSigmaPass, flattenResults } from '../src/analysis/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { compileRuleSet, loadRules } from '../src/sigma/index.js';
import { securityEvent } from './helpers/security-event.js';

const RULES = `title: Failed logon seen
name: failed_logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
---
title: Successful logon seen
name: successful_logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4624}
  condition: selection
---
title: Logon burst
name: burst
correlation:
  type: event_count
  rules: [failed_logon]
  group-by: [TargetUserName]
  timespan: 5m
  condition: {gte: 3}
`;

const T0 = Date.parse('2024-03-12T10:00:00Z');

function logon(recordId: number, eventId: number): EvtxEvent {
  const timestamp = T0 + recordId * 1000;
  const timestampText = new Date(timestamp).toISOString().replace('Z', '0000Z');
  return securityEvent({ recordId, timestamp, timestampText, eventId });
}

function runPass(rulesText: string) {
  const loaded = loadRules(rulesText, 'rules.yml');
  assert.deepEqual(loaded.diagnostics, []);
  const ruleSet = compileRuleSet({ rules: loaded.rules, filters: loaded.filters });
  const analyzer = createAnalyzer({ sigma: true });
  const pass = createSigmaPass({ analyzer, sigma: { loaded, ruleSet } });
  const reported = [1, 2, 3, 4].map((id) => pass.add(logon(id, id === 4 ? 4624 : 4625), 'Security.evtx'));
  const again = pass.add(logon(1, 4625), 'Security.evtx');
  const { hits } = pass.finish();
  const insights = JSON.stringify(flattenResults(analyzer.finish()));
  return { reported: reported.map((r) => r.rules.map((rule) => rule.name)), again, hits, insights };
}

test('rules that a generate: false correlation references feed it but are not reported on their own', () => {
  const { reported, hits, insights } = runPass(RULES);
  assert.deepEqual(reported, [[], [], [], ['successful_logon']]);
  assert.deepEqual(
    hits.map((h) => [h.correlation.name, h.value]),
    [['burst', 3]],
  );
  assert.ok(insights.includes('Logon burst'));
  assert.ok(insights.includes('Successful logon seen'));
  assert.ok(!insights.includes('Failed logon seen'));
});

test('with generate: true the referenced rule is reported on its own as well', () => {
  const { reported, hits, insights } = runPass(
    RULES.replace('  condition: {gte: 3}', '  generate: true\n  condition: {gte: 3}'),
  );
  assert.deepEqual(reported, [['failed_logon'], ['failed_logon'], ['failed_logon'], ['successful_logon']]);
  assert.equal(hits.length, 1);
  assert.ok(insights.includes('Failed logon seen'));
});

test('a duplicate event is neither analysed again nor matched', () => {
  const { again } = runPass(RULES);
  assert.deepEqual(again, { fresh: false, rules: [] });
});
