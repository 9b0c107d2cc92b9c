/**
 * Sigma evaluation speed (issue 46, acceptance 1): every active SigmaHQ rule (through the
 * Windows log-source mapping) over decoded events on one thread, on the corpus and on the
 * 1 GB generated job input (four 238 MiB files). Only evaluation is timed, as this thread's CPU
 * time (the machine is shared: wall time would count other processes): events are decoded
 * first, the generated ones in batches so that memory stays bounded. The first pass is cold
 * (plans, scanners and deferred matchers are built as events reach them), later passes warm.
 * One JSON object per line.
 *   node --import tsx bench/sigma.ts [--generated N]   (N of the four files; 0 skips them)
 */
import { existsSync } from 'node:fs';
import type { EvtxEvent } from '../src/evtx/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { compileRuleSet, type RuleSet, sigmaEventFromEvtx } from '../src/sigma/index.js';
import { corpusEvtxFiles, hasCorpus } from '../test/helpers/corpus.js';
import { activeSigmaRules, SIGMA_DIR, testPlaceholders } from '../test/helpers/sigma-corpus.js';
import { benchArgs, numberArg, refuse } from './args.js';
import { generatedJobFile, JOB_SIZES } from './job-files.js';

const USAGE = `
usage: node --import tsx bench/sigma.ts [--generated N]
  --generated N   how many of the 1 GB job's four generated files to evaluate (default 4; 0: none)`;
const { values: opts } = benchArgs(USAGE, { options: { generated: { type: 'string', default: '4' } } });
const GENERATED = numberArg('--generated', opts.generated, { min: 0, integer: true });
if (GENERATED > 4) refuse('--generated takes 0 to 4 (the 1 GB job has four files)');
const TARGET = 30_000;
const BATCH = 40_000;

const emit = (o: Record<string, unknown>) => console.log(JSON.stringify({ bench: 'sigma', ...o }));
const cpuMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const rate = (events: number, ms: number) => Math.round((events / ms) * 1000);

if (!hasCorpus || !existsSync(SIGMA_DIR)) {
  console.error('bench sigma: corpus not found; skipped');
  process.exit(0);
}

function compile(): RuleSet {
  let t = performance.now();
  const placeholders = testPlaceholders();
  const rules = activeSigmaRules(placeholders);
  const loadMs = performance.now() - t;
  t = performance.now();
  const ruleSet = compileRuleSet({ rules, options: { placeholders, timingSample: 0 } });
  emit({
    name: 'load',
    loadMs: Math.round(loadMs),
    compileMs: Math.round(performance.now() - t),
    ...ruleSet.coverage(),
  });
  return ruleSet;
}

/** Evaluation of `events` on this thread: its CPU ms and the matches. */
function evaluate(ruleSet: RuleSet, events: readonly EvtxEvent[]): { ms: number; matches: number } {
  const start = cpuMs();
  let matches = 0;
  for (const e of events) matches += ruleSet.match(sigmaEventFromEvtx(e)).length;
  return { ms: cpuMs() - start, matches };
}

async function corpus(): Promise<void> {
  const ruleSet = compile();
  const events: EvtxEvent[] = [];
  const t = cpuMs();
  for (const f of corpusEvtxFiles()) {
    try {
      for await (const r of parseEvtx(f, { outputs: ['event'] })) if (r.event) events.push(r.event);
    } catch {
      // A file the decoder refuses as a whole (not EVTX) is a conformance matter, not a bench one.
    }
  }
  const decodeMs = cpuMs() - t;
  const cold = evaluate(ruleSet, events);
  const warm = [1, 2, 3].map(() => evaluate(ruleSet, events).ms).sort((a, b) => a - b)[1]!;
  emit({
    name: 'evaluate corpus',
    events: events.length,
    matches: cold.matches,
    decodeEventsPerSec: rate(events.length, decodeMs),
    coldMs: Math.round(cold.ms),
    coldEventsPerSec: rate(events.length, cold.ms),
    warmMs: Math.round(warm),
    warmEventsPerSec: rate(events.length, warm),
    target: TARGET,
    meets: rate(events.length, cold.ms) >= TARGET,
  });
}

async function generated(files: readonly string[]): Promise<void> {
  const ruleSet = compile();
  let events = 0;
  let matches = 0;
  let ms = 0;
  let batch: EvtxEvent[] = [];
  const flush = () => {
    const r = evaluate(ruleSet, batch);
    events += batch.length;
    matches += r.matches;
    ms += r.ms;
    batch = [];
  };
  for (const f of files) {
    for await (const r of parseEvtx(f, { outputs: ['event'] })) {
      if (r.event) batch.push(r.event);
      if (batch.length === BATCH) flush();
    }
  }
  flush();
  emit({
    name: 'evaluate generated',
    files: files.length,
    events,
    matches,
    ms: Math.round(ms),
    eventsPerSec: rate(events, ms),
    target: TARGET,
    meets: rate(events, ms) >= TARGET,
  });
}

await corpus();
if (GENERATED > 0)
  await generated(JOB_SIZES['1G']!.slice(0, GENERATED).map(([s, seed]) => generatedJobFile(s, seed)));
