/**
 * The `winevtx` runner: every file of the job decoded once and fed to the analyzer, which
 * builds the seven result types (Overview, Process Inference Graph, Key Event Timeline,
 * Process Analysis, Network Analysis, Authentication, Persistence). With `run_sigma_rules`
 * each new (not duplicate) event is also tested against the community Sigma rules and the
 * matches, correlation hits included, join the Overview and the timeline. A file that cannot
 * be read becomes an Error insight beside the others; the job fails only when none could.
 */
import { createAnalyzer, type DescribeEvent, flattenResults } from '../analysis/index.js';
import { isTaeError, TaeError } from '../errors/index.js';
import { eventDescriber } from '../lookup/index.js';
import { type DecodePool, parseEvtx } from '../parse/index.js';
import { type BaseMatch, correlate, type SigmaRule, sigmaEventFromEvtx } from '../sigma/index.js';
import { errorInsight, type Insight } from './insights.js';
import type { CompiledSigma } from './sigma-file.js';
import type { JobRunner } from './types.js';

export interface WinevtxRunnerOptions {
  /** The engine's shared decode pool, created on first use; files below `inlineBelowBytes` decode inline. */
  readonly pool?: () => DecodePool;
  /** Default 8 MiB: below it, handing chunks to threads costs more than it saves. */
  readonly inlineBelowBytes?: number;
  /** The community Sigma rules, asked for only by jobs with `run_sigma_rules`. */
  readonly sigma?: () => CompiledSigma | Promise<CompiledSigma>;
  /** Windows message texts by event id (default: the built-in lookup dataset). */
  readonly describe?: DescribeEvent;
  /** Base matches kept for correlations (default 1,000,000). */
  readonly maxMatches?: number;
}

const ruleInput = (r: {
  title: string;
  id?: string;
  level?: string;
  status?: string;
  tags: readonly string[];
}) => ({
  title: r.title,
  ...(r.id ? { id: r.id } : {}),
  ...(r.level ? { level: r.level } : {}),
  ...(r.status ? { status: r.status } : {}),
  tags: [...r.tags],
});

export function createWinevtxRunner(options: WinevtxRunnerOptions = {}): JobRunner<'winevtx'> {
  const inlineBelow = options.inlineBelowBytes ?? 8 * 1024 * 1024;
  let describe = options.describe;
  return async (input, ctx) => {
    describe ??= eventDescriber();
    const sigma = input.run_sigma_rules && options.sigma !== undefined ? await options.sigma() : undefined;
    const analyzer = createAnalyzer({ sigma: input.run_sigma_rules, describe });
    const correlating = sigma !== undefined && sigma.loaded.correlations.length > 0;
    const matches: BaseMatch[] = [];
    const limit = options.maxMatches ?? 1_000_000;
    const errors: Insight[] = [];
    let parsed = 0;
    for (const id of input.file_ids) {
      let name = id;
      try {
        const file = await ctx.readFile(id);
        name = file.name;
        const pooled = options.pool !== undefined && file.size >= inlineBelow;
        const parse = parseEvtx(file.source, {
          label: file.name,
          signal: ctx.signal,
          ...(pooled ? { pool: options.pool!() } : {}),
        });
        for await (const r of parse) {
          const e = r.event;
          if (e === undefined || !analyzer.add(e, { file: file.name }) || sigma === undefined) continue;
          const event = sigmaEventFromEvtx(e);
          for (const { rule } of sigma.ruleSet.match(event)) {
            analyzer.addSigmaMatch({
              rule: ruleInput(rule),
              recordId: e.recordId,
              timestamp: e.timestamp,
              channel: e.channel,
              computer: e.computer,
            });
            if (correlating && matches.length < limit)
              matches.push({ rule, timestamp: e.timestamp, event, recordId: e.recordId });
          }
        }
        analyzer.addDiagnostics(parse.diagnostics, { file: file.name });
        parsed++;
      } catch (e) {
        if (ctx.signal.aborted) throw new TaeError('CANCELLED', 'job cancelled', { cause: e });
        if (!isTaeError(e)) throw e;
        errors.push(errorInsight(`${name}: ${e.message}`));
      }
    }
    if (parsed === 0) return errors;
    if (correlating) {
      const rules: readonly SigmaRule[] = sigma.loaded.rules;
      const { hits } = correlate({ correlations: sigma.loaded.correlations, matches, knownRules: rules });
      for (const h of hits)
        analyzer.addSigmaMatch({ rule: ruleInput(h.correlation), recordId: 0, timestamp: h.firstTimestamp });
    }
    return [...flattenResults(analyzer.finish()), ...errors];
  };
}
