/**
 * Sigma evaluation speed: every active SigmaHQ rule (through the Windows log-source mapping)
 * over every decoded corpus event, on the main thread (one core). Decoding is timed on the
 * same events so that the two rates can be compared; evaluation alone is then timed cold
 * (first pass) and warm (median of later passes). One JSON object per line.
 */
import { existsSync } from 'node:fs';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { compileRuleSet, sigmaEventFromEvtx } from '../src/sigma/index.js';
import { corpusEvtxFiles, hasCorpus } from '../test/helpers/corpus.js';
import { activeSigmaRules, SIGMA_DIR, testPlaceholders } from '../test/helpers/sigma-corpus.js';

const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'sigma', ...o }));

if (!hasCorpus || !existsSync(SIGMA_DIR)) {
  console.error('bench sigma: corpus not found; skipped');
  process.exit(0);
}

let t = performance.now();
const placeholders = testPlaceholders();
const rules = activeSigmaRules(placeholders);
const loadMs = performance.now() - t;
t = performance.now();
const ruleSet = compileRuleSet({ rules, options: { placeholders, timingSample: 0 } });
const compileMs = performance.now() - t;
const coverage = ruleSet.coverage();
emit({
  name: 'load',
  loadMs: Math.round(loadMs),
  compileMs: Math.round(compileMs),
  ...coverage,
});

const events: EvtxEvent[] = [];
t = performance.now();
for (const f of corpusEvtxFiles()) {
  try {
    for await (const r of parseEvtx(f, { outputs: ['event'] })) if (r.event) events.push(r.event);
  } catch {
    // A file the decoder refuses as a whole (not EVTX) is a conformance matter, not a bench one.
  }
}
const decodeMs = performance.now() - t;
emit({
  name: 'decode',
  events: events.length,
  ms: Math.round(decodeMs),
  eventsPerSec: Math.round((events.length / decodeMs) * 1000),
});

function pass(): { ms: number; matches: number } {
  const start = performance.now();
  let matches = 0;
  for (const e of events) matches += ruleSet.match(sigmaEventFromEvtx(e)).length;
  return { ms: performance.now() - start, matches };
}

const cold = pass();
const warm: number[] = [];
for (let i = 0; i < 5; i++) warm.push(pass().ms);
warm.sort((a, b) => a - b);
const warmMs = warm[Math.floor(warm.length / 2)]!;
const rate = (ms: number) => Math.round((events.length / ms) * 1000);
emit({
  name: 'evaluate',
  events: events.length,
  variants: coverage.variants,
  matches: cold.matches,
  coldMs: Math.round(cold.ms),
  coldEventsPerSec: rate(cold.ms),
  warmMs: Math.round(warmMs),
  warmEventsPerSec: rate(warmMs),
  target: 50_000,
  warmVsDecode: Number((decodeMs / warmMs).toFixed(2)),
});
