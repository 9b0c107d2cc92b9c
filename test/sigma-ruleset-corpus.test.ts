/**
 * The rule set on the decoded corpus with every active SigmaHQ rule: every rule maps or has a
 * reason, no match lies outside its variant's channels, indexed evaluation gives exactly the
 * matches of brute force, and rendered variants reload with the same verdicts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import {
  compileRuleSet,
  loadRules,
  type RuleSet,
  type RuleVariant,
  sigmaEventFromEvtx,
} from '../src/sigma/index.js';
import { corpusEvtxFiles } from './helpers/corpus.js';
import { activeSigmaRules, SKIP_NO_SIGMA } from './helpers/sigma-corpus.js';

const SKIP = SKIP_NO_SIGMA;
const activeRules = () => activeSigmaRules();

/** Whether the event is in one of the variant's channels (or is forwarded from its provider). */
function inChannels(v: RuleVariant, e: EvtxEvent): boolean {
  const { channels, providers } = v.selector;
  if (channels === 'any') return true;
  const c = e.channel.toLowerCase();
  if (channels.some((x) => (x.prefix ? c.startsWith(x.name.toLowerCase()) : c === x.name.toLowerCase())))
    return true;
  return c === 'forwardedevents' && providers.some((p) => p.name.toLowerCase() === e.provider.toLowerCase());
}

describe('the rule set on the decoded corpus', { skip: SKIP }, () => {
  const events: EvtxEvent[] = [];
  let rs: RuleSet;
  before(async () => {
    for (const f of corpusEvtxFiles())
      for await (const r of parseEvtx(f, { outputs: ['event'] })) if (r.event) events.push(r.event);
    const placeholders = JSON.parse(
      readFileSync(join(import.meta.dirname, 'sigma-fixtures', 'placeholders.json'), 'utf8'),
    ) as Record<string, string[]>;
    rs = compileRuleSet({ rules: activeRules(), options: { placeholders } });
  });

  test('every active SigmaHQ Windows rule maps or has a reason; no match lies outside its variant channels', () => {
    const coverage = rs.coverage();
    console.log(`  coverage: ${JSON.stringify(coverage)}`);
    const dropped: Record<string, number> = {};
    for (const d of rs.dropped) {
      const why = d.message.includes('exclusion') ? 'exclusion' : 'selections';
      dropped[why] = (dropped[why] ?? 0) + 1;
    }
    console.log(`  dropped 4688 variants: ${JSON.stringify(dropped)}`);
    assert.equal(
      coverage.byCode['logsource.unknown'],
      undefined,
      'every Windows category and service is known',
    );
    assert.ok(coverage.mapped >= 2800, `${coverage.mapped} rules mapped`);
    let matches = 0;
    const byVariant = new Map<string, number>();
    for (const e of events) {
      for (const m of rs.match(sigmaEventFromEvtx(e))) {
        matches++;
        byVariant.set(m.variant.name, (byVariant.get(m.variant.name) ?? 0) + 1);
        assert.ok(inChannels(m.variant, e), `${m.rule.title}/${m.variant.name} matched in ${e.channel}`);
      }
    }
    console.log(
      `  ${events.length} events, ${matches} matches by variant: ${JSON.stringify(Object.fromEntries(byVariant))}`,
    );
    assert.ok(matches > 1000 && byVariant.size >= 5, 'the corpus exercises many variants');
  });

  test('indexed evaluation gives exactly the matches of brute force over every variant', () => {
    // One event per (channel, id) pair, every 400th event, and every 10th event something matched.
    const seen = new Map<string, number>();
    let matched = 0;
    const sample = events.filter((e, i) => {
      const key = `${e.channel}\u0000${e.eventId}`;
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      if (n < 1 || i % 400 === 0) return true;
      return rs.match(sigmaEventFromEvtx(e)).length > 0 && matched++ % 10 === 0;
    });
    let positives = 0;
    for (const e of sample) {
      const indexed = rs.match(sigmaEventFromEvtx(e)).map((m) => m.variant);
      const event = sigmaEventFromEvtx(e);
      const brute = rs.variants.filter((v) => v.matches(event));
      assert.deepEqual(
        indexed.map((v) => `${v.rule.title}/${v.name}`).sort(),
        brute.map((v) => `${v.rule.title}/${v.name}`).sort(),
        `${e.channel} ${e.eventId} record ${e.recordId}`,
      );
      positives += brute.length;
    }
    console.log(`  brute force agreed on ${sample.length} events (${positives} matches)`);
    assert.ok(positives > 300, `${positives} matches in the sample`);
  });

  test('rendered variants of corpus rules reload with the same verdicts', () => {
    // One matching rule per variant name, plus the first variants that match most.
    const chosen = new Map<string, RuleVariant>();
    for (const e of events) {
      for (const m of rs.match(sigmaEventFromEvtx(e)))
        if (!chosen.has(m.variant.name)) chosen.set(m.variant.name, m.variant);
      if (chosen.size >= 8) break;
    }
    assert.ok(chosen.size >= 4);
    const sigmaEvents = events.map(sigmaEventFromEvtx);
    for (const v of chosen.values()) {
      const back = loadRules(v.renderYaml().join('\n'), 'rendered.yml', {
        placeholders: JSON.parse(
          readFileSync(join(import.meta.dirname, 'sigma-fixtures', 'placeholders.json'), 'utf8'),
        ),
      });
      assert.deepEqual(back.diagnostics, []);
      const again = back.rules[0]!;
      let hits = 0;
      sigmaEvents.forEach((se, i) => {
        // Every event of the variant's log source, and a sample of the others.
        if (!v.accepts(se) && i % 25 !== 0) return;
        const want = v.matches(se);
        if (want) hits++;
        assert.equal(again.matches(se), want, `${v.rule.title}/${v.name} on record ${events[i]!.recordId}`);
      });
      assert.ok(hits > 0);
    }
  });
});
