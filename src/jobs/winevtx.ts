/**
 * The `winevtx` runner: every file of the job decoded once and fed to the analyzer, which
 * builds the seven result types (Overview, Process Inference Graph, Key Event Timeline,
 * Process Analysis, Network Analysis, Authentication, Persistence). With `run_sigma_rules`
 * each new (not duplicate) event is also tested against the community Sigma rules and the
 * matches, correlation hits included, join the Overview and the timeline. A file that cannot
 * be read becomes an Error insight beside the others; the job fails only when none could.
 * Each new event is also written, with the titles of the rules it matched, into the job's
 * event index (search), which is committed before the job completes. With `run_yara_payloads`
 * the payloads new events carry (script blocks, decoded commands…) are scanned with the
 * community YARA rules on the YARA workers, with their scan timeout, while decoding goes on
 * (it waits when too many payload bytes are queued); matches join the Overview and the timeline.
 */
import {
  type Analyzer,
  correlationErrorInsight,
  createAnalyzer,
  createSigmaPass,
  type DescribeEvent,
  type EventAdded,
  flattenResults,
  sigmaRuleRef,
} from '../analysis/index.js';
import { TaeError } from '../errors/index.js';
import { errorInsight, type Insight, isErrorInsight } from '../insights/index.js';
import { eventDescriber, isBuiltinDescriber } from '../lookup/index.js';
import { createPayloadScanQueue, type PayloadScanQueue } from '../payloads/index.js';
import { decodeFiles } from '../pipeline/index.js';
import type { EventSink, SigmaRuleRef } from '../search/index.js';
import type { CompiledSigma } from '../sigma/index.js';
import { type CompiledRuleSet, defaultYaraEngine, type YaraEngine } from '../yara/index.js';
import { type DecodeOptions, failureInsights, jobDecoding, jobFiles } from './job-files.js';
import { collectGarbage } from './memory.js';
import type { JobRunner, RunContext } from './types.js';

/** A job's event index while the job runs (see the search module). */
export interface JobEventIndex extends EventSink {
  /** Makes the index the job's (sealed for a private job); called before the runner returns. */
  commit(): Promise<void>;
  /**
   * Drops what was built (the job failed or was cancelled); resolves once its files are gone
   * and their space is free again (the job's outcome is written next, maybe on the same disk).
   */
  abort(): Promise<void>;
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
  /** The community YARA rules, asked for only by jobs with `run_yara_payloads`. */
  readonly yara?: () => CompiledRuleSet | Promise<CompiledRuleSet>;
  /** Scans payloads (default: the process-wide engine, whose scan timeout applies). */
  readonly yaraEngine?: YaraEngine;
  /** Windows message texts by event id (default: the built-in lookup dataset). */
  readonly describe?: DescribeEvent;
  /** Base matches kept for correlations (default 1,000,000, within 64 MiB: sigma/correlate/limits.ts). */
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
    const yara =
      input.run_yara_payloads === true && options.yara !== undefined ? await options.yara() : undefined;
    const index = options.index?.(ctx, { sigma: input.run_sigma_rules, describe, signal: ctx.signal });
    try {
      const scans = yara === undefined ? undefined : payloadScans(yara, ctx.signal);
      // Made inside `analyse`, so that its state (tens of MB on a large job) can be collected
      // while the index is completed: nothing here holds it once the insights are made.
      const analyzer = () =>
        createAnalyzer({
          sigma: input.run_sigma_rules,
          describe: describe!,
          ...(yara === undefined ? {} : { yaraPayloads: true }),
        });
      const insights = await analyse(input, ctx, analyzer, sigma, index, scans);
      collectGarbage(); // the analysis is garbage now; the index completes on other threads
      if (insights.length > 0 && insights.every(isErrorInsight)) await index?.abort();
      else await index?.commit();
      return insights;
    } catch (e) {
      await index?.abort();
      throw e;
    }
  };

  function payloadScans(rules: CompiledRuleSet, signal: AbortSignal): PayloadScanQueue {
    return payloadScanQueue(rules, options.yaraEngine ?? defaultYaraEngine(), signal);
  }

  async function analyse(
    input: Parameters<JobRunner<'winevtx'>>[0],
    ctx: Parameters<JobRunner<'winevtx'>>[1],
    newAnalyzer: () => Analyzer,
    sigma: CompiledSigma | undefined,
    index: EventSink | undefined,
    scans: PayloadScanQueue | undefined,
  ): Promise<Insight[]> {
    const analyzer = newAnalyzer();
    const pass = createSigmaPass({
      analyzer,
      ...(sigma === undefined ? {} : { sigma }),
      ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
    });
    /** The event (or the row a worker made of it) into the index, as new or as a duplicate. */
    const toIndex = (added: EventAdded, staged: Parameters<EventSink['add']>[0], file: string): void => {
      if (!added.fresh) index!.duplicate(staged, file);
      else index!.add(staged, file, added.rules.length === 0 ? NO_RULES : added.rules.map(sigmaRuleRef));
    };
    // The pool's workers match the rules where they decode (see the pipeline module).
    const decoded = await decodeFiles(
      jobFiles(ctx, input.file_ids),
      {
        ...jobDecoding(ctx, options),
        ...(sigma === undefined ? {} : { sigma }),
        // The index's rows are made where the events are decoded, and only the rows travel on.
        ...(index?.rows === undefined ? {} : { rows: index.rows }),
        // So are the analyzer's digests, when nothing else here needs the whole event.
        digest:
          scans === undefined &&
          isBuiltinDescriber(describe) &&
          (index === undefined || index.rows !== undefined),
        // Of a matched event, only a correlation reads more than the digest: on 1 GB of generated
        // logs with the SigmaHQ rules, 434,422 events crossed to this thread for none.
        correlatedEventsOnly: true,
      },
      {
        digest(d, e, file, matched, row) {
          const added = pass.addDigest(d, file.name, matched, e);
          if (index === undefined) return undefined;
          // A worker digests only the chunks it made rows of (pipeline/worker-stages.ts).
          const staged = row ?? e;
          if (staged === undefined)
            throw new TaeError('INTERNAL', 'an event digest came without its index row');
          toIndex(added, staged, file.name);
          return undefined;
        },
        event(e, file, matched, row) {
          const added = pass.add(e, file.name, matched);
          if (index !== undefined) toIndex(added, row ?? e, file.name);
          return added.fresh ? scans?.add(e, file.name) : undefined;
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
    const scanned = scans === undefined ? undefined : await scans.finish();
    if (scanned !== undefined) {
      ctx.signal.throwIfAborted();
      analyzer.addPayloadScan(scanned);
      index?.payloadMatches?.(scanned.matches);
      if (scanned.error !== undefined) errors.push(errorInsight(payloadScanStopped(scanned.error)));
    }
    const { hits, diagnostics } = pass.finish();
    for (const h of hits) index?.correlation(sigmaRuleRef(h.correlation), h.firstTimestamp);
    return [...flattenResults(analyzer.finish()), ...errors, ...diagnostics.map(correlationErrorInsight)];
  }
}

/** Payload scans in batches on the engine's workers, one batch a worker; each scan under the engine's timeout. */
function payloadScanQueue(rules: CompiledRuleSet, engine: YaraEngine, signal: AbortSignal): PayloadScanQueue {
  return createPayloadScanQueue({
    scan: (targets) => engine.scanBatch({ rules, targets, timeoutMs: engine.options.scanTimeoutMs, signal }),
    concurrency: engine.options.threads,
  });
}

const payloadScanStopped = (e: unknown): string =>
  `YARA payload scanning stopped: ${e instanceof Error ? e.message : String(e)}`;
