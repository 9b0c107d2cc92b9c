/**
 * What a Sigma run keeps for its correlations is bounded whatever the rules and the input
 * (sigma/correlate/limits.ts): base matches by count and by estimated size, hits by count. A
 * bound reached is a diagnostic, which a job shows as an Error insight and the CLI as a warning.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  type BaseMatch,
  correlate,
  eventFromObject,
  loadRules,
  type SigmaEvent,
  SigmaSession,
} from '../src/sigma/index.js';
import { runModule } from './helpers/young-generation.js';

const RULES = `title: logon
name: logon
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4624}
  condition: selection
---
title: every logon
name: every
correlation:
  type: event_count
  rules: [logon]
  group-by: [TargetUserName]
  timespan: 1m
  condition: {gte: 1}
---
title: every hit
name: chained
correlation:
  type: event_count
  rules: [every]
  group-by: [TargetUserName]
  timespan: 1m
  condition: {gte: 1}
generate: true
`;
const T0 = Date.UTC(2026, 0, 1);
const loaded = loadRules(RULES, 'limits.yml');
const logon = loaded.rules[0]!;
const event = (i: number, user = `user-${i % 7}`): SigmaEvent =>
  eventFromObject({ EventID: 4624, TargetUserName: user, Channel: 'Security' });

function session(options: ConstructorParameters<typeof SigmaSession>[2], users: readonly string[]) {
  const s = new SigmaSession(loaded, { match: () => [] }, options);
  users.forEach((u, i) => {
    s.matched([logon], () => event(i, u), { timestamp: T0 + i * 120_000 });
  });
  return s.finish();
}

test('base matches past the size kept for correlation are counted in a diagnostic, in arrival order', () => {
  const users = ['a', 'b', 'c', 'a-much-longer-name'.repeat(20), 'd', 'e'];
  const r = session({ maxMatchBytes: 1500 }, users);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.message]),
    [
      [
        'correlation.limit',
        '3 base matches beyond the 1500 bytes kept for correlation (3 matches) were not correlated',
      ],
    ],
  );
  // Once the size is reached no later match is kept, however small: the first three are.
  assert.deepEqual(
    r.hits.filter((h) => h.correlation.name === 'every').map((h) => h.group.TargetUserName),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(session({}, users).diagnostics, []);
});

test('hits past the cap are counted in a diagnostic and not fed to the correlations that chain them', () => {
  const users = ['a', 'b', 'c', 'd'];
  const r = session({ maxHits: 5 }, users);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.message]),
    [['correlation.hit_limit', '3 correlation hits beyond the limit of 5 were not reported']],
  );
  assert.deepEqual(
    r.hits.map((h) => `${h.correlation.name} ${h.group.TargetUserName}`),
    ['every a', 'chained a', 'every b', 'every c', 'every d'],
  );
});

test('a correlation with more hits than one call takes arguments reports them all', () => {
  // 150,000 hits were pushed with a spread, which threw a RangeError (a job failed as INTERNAL).
  const e = event(0);
  const matches: BaseMatch[] = Array.from({ length: 150_000 }, (_, i) => ({
    rule: logon,
    timestamp: T0 + i * 120_000,
    event: e,
  }));
  const every = loaded.correlations.filter((c) => c.name === 'every');
  const r = correlate({ correlations: every, matches, maxHits: 200_000 });
  assert.equal(r.hits.length, 150_000);
  assert.deepEqual(r.diagnostics, []);
});

test('what a run keeps for its correlations stays under 96 MiB of heap however many matches come', () => {
  const src = JSON.stringify(join(import.meta.dirname, '..', 'src', 'sigma', 'index.ts'));
  const r = runModule<{ heapMiB: number; hits: number; codes: string[] }>(
    ['--expose-gc'],
    `
import { eventFromObject, loadRules, SigmaSession } from ${src};
const loaded = loadRules(${JSON.stringify(RULES)}, 'limits.yml');
const s = new SigmaSession(loaded, { match: () => [] });
const used = () => { gc(); gc(); return process.memoryUsage().heapUsed / 2 ** 20; };
const start = used();
for (let i = 0; i < 400_000; i++) {
  const e = eventFromObject({ TargetUserName: 'user-' + (i % 5000), IpAddress: '10.0.' + (i >> 8 & 255) + '.' + (i & 255) });
  s.matched([loaded.rules[0]], () => e, { timestamp: ${T0} + i * 1000 });
}
const result = s.finish();
console.log(JSON.stringify({ heapMiB: used() - start, hits: result.hits.length, codes: result.diagnostics.map((d) => d.code) }));
`,
  );
  // Unbounded, the 400,000 matches alone held 138 MiB, and their hits threw a RangeError.
  assert.ok(r.heapMiB < 96, `${r.heapMiB.toFixed(1)} MiB kept`);
  assert.deepEqual(r.codes, ['correlation.hit_limit', 'correlation.limit']);
  assert.ok(r.hits > 50_000);
});
