/**
 * One rule set (a base rule, a `generate: false` correlation over it, a correlation with a
 * broken reference, a plain rule) over one generated log, through every entry point: the
 * parse job, the Sigma file job, the data endpoint, `tae analyze` and `tae sigma`. They all
 * report the same rules and the same correlation problems; a run past the match cap says so.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { createSigmaFileRunner, createWinevtxRunner } from '../src/jobs/index.js';
import { Engine, type JobStatusResponse } from '../src/service/index.js';
import { compileRuleSet, loadRules } from '../src/sigma/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { settle } from './helpers/engine-test.js';

const RULES = `title: Failed logon
id: 0e7a0000-0000-4000-8000-000000000001
name: failed_logon
level: medium
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4625}
  condition: selection
---
title: Successful logon
id: 0e7a0000-0000-4000-8000-000000000002
level: low
logsource: {product: windows, service: security}
detection:
  selection: {EventID: 4624}
  condition: selection
---
title: Failed logon burst
id: 0e7a0000-0000-4000-8000-000000000003
level: high
correlation:
  type: event_count
  rules: [failed_logon]
  group-by: [TargetUserName]
  timespan: 1h
  condition: {gte: 3}
---
title: Burst of a rule that does not exist
id: 0e7a0000-0000-4000-8000-000000000004
level: high
correlation:
  type: event_count
  rules: [no_such_rule]
  group-by: [TargetUserName]
  timespan: 1h
  condition: {gte: 1}
`;

const EVENTS: [time: string, eventId: number, user: string][] = [
  ['2026-03-01T10:00:00Z', 4625, 'alice'],
  ['2026-03-01T10:01:00Z', 4625, 'alice'],
  ['2026-03-01T10:02:00Z', 4625, 'bob'],
  ['2026-03-01T10:03:00Z', 4625, 'alice'],
  ['2026-03-01T10:04:00Z', 4624, 'alice'],
];

const events = (): EventDescription[] =>
  EVENTS.map(([time, eventId, user]) => ({
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
    channel: 'Security',
    computer: 'HOST-A',
    time,
    eventId,
    eventData: { TargetUserName: user, IpAddress: '10.0.13.37' },
  }));

/** What every entry point must say: rule → matches, and the correlation problems. */
const EXPECTED_TITLES = ['Failed logon burst', 'Successful logon'];
const EXPECTED_COUNTS = { 'Failed logon burst': 1, 'Successful logon': 1 };
const BROKEN = /no_such_rule/;

const dir = mkdtempSync(join(tmpdir(), 'tae-sigma-entry-'));
const rulesDir = join(dir, 'rules');
mkdirSync(rulesDir);
writeFileSync(join(rulesDir, 'logons.yml'), RULES);
const log = writeEvtx(events());
writeFileSync(join(dir, 'logons.evtx'), log);
const tae = (...args: string[]) => runTae(dir, args);

let engine: Engine;
before(async () => {
  ensureBuilt();
  engine = await Engine.open({ memory: true, rules: { builtin: false, packs: [rulesDir], dataDir: false } });
});
after(() => engine.close());

const tally = (titles: readonly string[]) => {
  const out: Record<string, number> = {};
  for (const t of titles) out[t] = (out[t] ?? 0) + 1;
  return out;
};
const errorsOf = (job: JobStatusResponse) =>
  (job.insights ?? []).flatMap((i) => ('Error' in i ? [i.Error.message] : []));
const tableRows = (job: JobStatusResponse, title: string) => {
  const table = (job.insights ?? []).find((i) => 'Table' in i && i.Table.title === title);
  assert.ok(table && 'Table' in table, `no ${title} table`);
  return table.Table.data.slice(1) as string[][];
};

async function uploaded(): Promise<string> {
  const up = await engine.upload({ files: [{ name: 'logons.evtx', data: log }] });
  return up.file_ids[0]![0];
}

test('the parse job reports the rule set as every other entry point does', async () => {
  const job = await engine.createParseJob({ file_ids: [await uploaded()], run_sigma_rules: true });
  const done = await settle(engine, job.id);
  assert.equal(done.status, 'Completed');
  const rows = tableRows(done, 'Overview: Sigma Matches');
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r[0], Number(r[2])])), EXPECTED_COUNTS);
  const problems = errorsOf(done);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, /^Sigma correlation: .*no_such_rule/);
});

test('the Sigma file job reports the same rules and the same correlation problem', async () => {
  const job = await engine.createSigmaFileJob({
    file_ids: [await uploaded()],
    operation: 'run_community_rules',
  });
  const done = await settle(engine, job.id);
  const rows = tableRows(done, 'Sigma Rule Matches');
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r[2], Number(r[4])])), EXPECTED_COUNTS);
  assert.deepEqual(errorsOf(done), [errorsOf(done)[0]]);
  assert.match(errorsOf(done)[0]!, /^Sigma correlation: .*no_such_rule/);
});

test('the data endpoint reports the same rules and the same correlation problem', async () => {
  const parsed = tae('parse', '-f', 'jsonl', 'logons.evtx');
  assert.equal(parsed.status, 0, parsed.stderr);
  const { results } = await engine.sigmaData({
    operation: 'run_rule',
    test_data: Buffer.from(parsed.stdout).toString('base64'),
    rule: Buffer.from(RULES).toString('base64'),
  });
  const table = results.find((r) => r.type === 'Table');
  assert.ok(table && table.type === 'Table');
  assert.deepEqual(table.data.slice(1).flat().sort(), EXPECTED_TITLES);
  const problems = results.flatMap((r) => (r.type === 'Error' ? [r.message] : []));
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, BROKEN);
});

test('tae analyze and tae sigma report the same rules and warn of the same correlation problem', () => {
  const analyzed = tae('analyze', '--rule', 'rules', '-q', '-o', 'out.json', 'logons.evtx');
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const doc = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
    sigma: { detections: { rule_title: string }[] };
  };
  assert.deepEqual(tally(doc.sigma.detections.map((d) => d.rule_title)), EXPECTED_COUNTS);
  assert.match(analyzed.stderr, /tae: warning: Sigma correlation: .*no_such_rule/);

  const sigma = tae('sigma', '--json', '--rule', 'rules', 'logons.evtx');
  assert.equal(sigma.status, 0, sigma.stderr);
  const matches = JSON.parse(sigma.stdout) as { rule_title: string }[];
  assert.deepEqual(tally(matches.map((m) => m.rule_title)), EXPECTED_COUNTS);
  assert.match(sigma.stderr, /tae: warning: Sigma correlation: .*no_such_rule/);
});

test('a run past the match cap reports correlation.limit in the parse job and the Sigma file job', async () => {
  const loaded = loadRules(RULES, 'logons.yml');
  const compiled = { loaded, ruleSet: compileRuleSet({ rules: loaded.rules, filters: loaded.filters }) };
  const sigmaFiles = createSigmaFileRunner({ community: () => compiled, maxMatches: 2 });
  const capped = await Engine.open({
    memory: true,
    runners: {
      winevtx: createWinevtxRunner({ sigma: () => compiled, maxMatches: 2 }),
      sigma_file_community: (input, ctx) => sigmaFiles(input, ctx),
    },
  });
  try {
    const up = await capped.upload({ files: [{ name: 'logons.evtx', data: log }] });
    const file = up.file_ids[0]![0];
    const parse = await settle(
      capped,
      (await capped.createParseJob({ file_ids: [file], run_sigma_rules: true })).id,
    );
    const swept = await settle(
      capped,
      (await capped.createSigmaFileJob({ file_ids: [file], operation: 'run_community_rules' })).id,
    );
    for (const job of [parse, swept]) {
      const problems = errorsOf(job);
      // Four failed logons are correlated; two are kept, so the burst of three cannot fire.
      assert.ok(
        problems.includes('Sigma correlation: 2 base matches beyond the limit of 2 were not correlated'),
        problems.join('\n'),
      );
    }
    assert.deepEqual(
      tableRows(parse, 'Overview: Sigma Matches').map((r) => r[0]),
      ['Successful logon'],
    );
  } finally {
    await capped.close();
  }
});
