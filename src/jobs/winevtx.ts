/**
 * The `winevtx` runner: every file of the job decoded once and fed to the analyzer, which
 * builds the seven result types (Overview, Process Inference Graph, Key Event Timeline,
 * Process Analysis, Network Analysis, Authentication, Persistence). With `run_sigma_rules`
 * each new (not duplicate) event is also tested against the community Sigma rules and the
 * matches, correlation hits included, join the Overview and the timeline. A file that cannot
 * be read becomes an Error insight beside the others; the job fails only when none could.
 * Each new event is also written, with the titles of the rules it matched, into the job's
 * event index (search), which is committed before the job completes.
 */
import {
  type Analyzer,
  correlationErrorInsight,
  createAnalyzer,
  createSigmaPass,
  type DescribeEvent,
  flattenResults,
  sigmaRuleRef,
} from '../analysis/index.js';
import { type Insight, isErrorInsight } from '../insights/index.js';
import { eventDescriber } from '../lookup/index.js';
import { decodeFiles } from '../pipeline/index.js';
import type { EventSink, SigmaRuleRef } from '../search/index.js';
import type { CompiledSigma } from '../sigma/index.js';
import { type DecodeOptions, failureInsights, jobDecoding, jobFiles } from './job-files.js';
import type { JobRunner, RunContext } from './types.js';

/** A job's event index while the job runs (see the search module). */
export interface JobEventIndex extends EventSink {
  /** Makes the index the job's (sealed for a private job); called before the runner returns. */
  commit(): Promise<void>;
  /** Drops what was built (the job failed or was cancelled). */
  abort(): void;
}

export interface JobEventIndexOptions {
  /** The job runs Sigma rules. */
  readonly sigma: boolean;
  readonly describe: DescribeEvent;
  /** The job's signal: a cancelled job stops building. */
  readonly signal: AbortSignal;
}

export interface WinevtxRunnerOptions extends DecodeOptions {
  /** The community Sigma rules, asked for only by jobs with `run_sigma_rules`. */
  readonly sigma?: () => CompiledSigma | Promise<CompiledSigma>;
  /** Windows message texts by event id (default: the built-in lookup dataset). */
  readonly describe?: DescribeEvent;
  /** Base matches kept for correlations (default 1,000,000). */
  readonly maxMatches?: number;
  /** Opens the event index of one run of a job; without it no index is written. */
  readonly index?: (
    run: Pick<RunContext, 'jobId' | 'jobKey'>,
    options: JobEventIndexOptions,
  ) => JobEventIndex;
}

const NO_RULES: readonly SigmaRuleRef[] = [];

export function createWinevtxRunner(options: WinevtxRunnerOptions = {}): JobRunner<'winevtx'> {
  let describe = options.describe;
  return async (input, ctx) => {
    describe ??= eventDescriber();
    const sigma = input.run_sigma_rules && options.sigma !== undefined ? await options.sigma() : undefined;
    const analyzer = createAnalyzer({ sigma: input.run_sigma_rules, describe });
    const index = options.index?.(ctx, { sigma: input.run_sigma_rules, describe, signal: ctx.signal });
    try {
      const insights = await analyse(input, ctx, analyzer, sigma, index);
      if (insights.length > 0 && insights.every(isErrorInsight)) index?.abort();
      else await index?.commit();
      return insights;
    } catch (e) {
      index?.abort();
      throw e;
    }
  };

  async function analyse(
    input: Parameters<JobRunner<'winevtx'>>[0],
    ctx: Parameters<JobRunner<'winevtx'>>[1],
    analyzer: Analyzer,
    sigma: CompiledSigma | undefined,
    index: EventSink | undefined,
  ): Promise<Insight[]> {
    const pass = createSigmaPass({
      analyzer,
      ...(sigma === undefined ? {} : { sigma }),
      ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
    });
    // The pool's workers match the rules where they decode (see the pipeline module).
    const decoded = await decodeFiles(
      jobFiles(ctx, input.file_ids),
      { ...jobDecoding(ctx, options), ...(sigma === undefined ? {} : { sigma }) },
      {
        event(e, file, matched) {
          const added =
            matched === undefined ? pass.add(e, file.name) : pass.addMatched(e, file.name, matched);
          if (!added.fresh) index?.duplicate(e, file.name);
          else index?.add(e, file.name, added.rules.length === 0 ? NO_RULES : added.rules.map(sigmaRuleRef));
        },
        fileDone({ name, parse }) {
          analyzer.addDiagnostics(parse.diagnostics, { file: name });
          index?.fileDiagnostics(name, parse.diagnostics);
        },
        ready: () => index?.ready?.(),
      },
    );
    const errors = failureInsights(decoded);
    const parsed = decoded.parsed;
    if (parsed === 0) return errors;
    const { hits, diagnostics } = pass.finish();
    for (const h of hits) index?.correlation(sigmaRuleRef(h.correlation), h.firstTimestamp);
    return [...flattenResults(analyzer.finish()), ...errors, ...diagnostics.map(correlationErrorInsight)];
  }
}
