/**
 * Per-rule match counts of every active SigmaHQ rule, pinned: on the decoded corpus and on a
 * generated log (seeded, written by the fixtures' EVTX writer). The golden file was written
 * before the evaluation was made faster (prefilters, routing); a change in what matches shows
 * here rule by rule.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createEvtxStreamWriter } from '../fixtures/evtx-writer/index.js';
import { randomEvents } from '../fixtures/large-events.js';
import { parseEvtx } from '../src/parse/index.js';
import { compileRuleSet, type RuleSet, sigmaEventFromEvtx } from '../src/sigma/index.js';
import { corpusEvtxFiles } from './helpers/corpus.js';
import { matchesGolden } from './helpers/golden.js';
import { activeSigmaRules, SKIP_NO_SIGMA, testPlaceholders } from './helpers/sigma-corpus.js';

/** Chunks of the generated log: about 3,000 events of every kind the generator makes. */
const GENERATED_CHUNKS = 96;

async function countsOver(ruleSet: RuleSet, files: readonly string[]) {
  const byRule = new Map<string, number>();
  let events = 0;
  let matches = 0;
  for (const f of files) {
    try {
      for await (const r of parseEvtx(f, { outputs: ['event'] })) {
        if (r.event === undefined) continue;
        events++;
        for (const m of ruleSet.match(sigmaEventFromEvtx(r.event))) {
          matches++;
          const key = `${m.rule.source}#${m.rule.document}`;
          byRule.set(key, (byRule.get(key) ?? 0) + 1);
        }
      }
    } catch {
      // A file the decoder refuses whole counts no events, before and after alike.
    }
  }
  const sorted = [...byRule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { events, matches, byRule: Object.fromEntries(sorted) };
}

describe('per-rule match counts of the SigmaHQ rules', { skip: SKIP_NO_SIGMA }, () => {
  let ruleSet: RuleSet;
  let dir: string;
  before(() => {
    const placeholders = testPlaceholders();
    ruleSet = compileRuleSet({ rules: activeSigmaRules(placeholders), options: { placeholders } });
    dir = mkdtempSync(join(tmpdir(), 'tae-match-counts-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('on the decoded corpus, every rule matches as many events as the pinned counts say', async () => {
    const counts = await countsOver(ruleSet, corpusEvtxFiles());
    matchesGolden('sigma-match-counts-corpus.json', `${JSON.stringify(counts, null, 1)}\n`);
  });

  test('on a generated log, every rule matches as many events as the pinned counts say', async () => {
    const path = join(dir, 'generated.evtx');
    const writer = createEvtxStreamWriter(path);
    const events = randomEvents(20261129);
    while (writer.chunksWritten < GENERATED_CHUNKS) writer.write(events.next().value);
    writer.close();
    const counts = await countsOver(ruleSet, [path]);
    matchesGolden('sigma-match-counts-generated.json', `${JSON.stringify(counts, null, 1)}\n`);
  });
});
