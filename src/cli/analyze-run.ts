/**
 * `tae analyze`'s work, in this process and without a data directory: the `winevtx` parse
 * job's pipeline (src/jobs/winevtx.ts) over files read in place. Each file is decoded once
 * (large ones on the decode pool) and goes through the job's pipeline (analysis/sigma-pass.ts);
 * every reported match is also kept with its rule for the summary, the JSON results and the
 * report. Insights are those of the job, in its order.
 */
import { statSync } from 'node:fs';
import {
  correlationErrorInsight,
  createAnalyzer,
  createSigmaPass,
  flattenResults,
} from '../analysis/index.js';
import { isTaeError } from '../errors/index.js';
import type { Diagnostic } from '../evtx/index.js';
import { errorInsight, type Insight } from '../insights/index.js';
import { eventDescriber } from '../lookup/index.js';
import { type DecodePool, parseEvtxStaged } from '../parse/index.js';
import { forEachEvent, pipelinePool, sigmaStage } from '../pipeline/index.js';
import type { RuleDiagnostic } from '../sigma/index.js';
import { Detections } from './detections.js';
import { type EventWindow, inWindow } from './rule-filter.js';
import type { SigmaRules } from './sigma-rules.js';

/** As the job runner: below this size, handing chunks to threads costs more than it saves. */
const INLINE_BELOW_BYTES = 8 * 1024 * 1024;

export interface AnalyzeProgress {
  readonly file: string;
  readonly fileIndex: number;
  readonly files: number;
  readonly bytes: number;
  readonly size: number;
  readonly records: number;
}

export interface AnalyzeOptions {
  readonly files: readonly string[];
  readonly sigma?: SigmaRules;
  /** Decode threads for large files (0: decode on this thread). */
  readonly threads: number;
  /** Events outside are left out of the whole analysis, Sigma and insights alike (default: all). */
  readonly window?: EventWindow;
  readonly onProgress?: (p: AnalyzeProgress) => void;
}

export interface AnalyzeResult {
  readonly insights: Insight[];
  readonly detections: Detections;
  readonly records: number;
  /** Files that could not be read, with the reason (also Error insights, as in the job). */
  readonly failures: { readonly file: string; readonly message: string }[];
  /** The decoder's diagnostics of the files read, each naming its file. */
  readonly diagnostics: Diagnostic[];
  /** Correlation problems (also Error insights, as in the job). */
  readonly correlationDiagnostics: RuleDiagnostic[];
}

export async function analyzeFiles(options: AnalyzeOptions): Promise<AnalyzeResult> {
  const { sigma } = options;
  const analyzer = createAnalyzer({ sigma: sigma !== undefined, describe: eventDescriber() });
  const pass = createSigmaPass({ analyzer, ...(sigma === undefined ? {} : { sigma }) });
  const detections = new Detections();
  const failures: { file: string; message: string }[] = [];
  const diagnostics: Diagnostic[] = [];
  let pool: DecodePool | undefined;
  let records = 0;
  // Large files decode on the pool, whose workers also match the rules.
  const staged = sigmaStage(sigma);
  const stage = staged?.stage;
  const rules = staged?.rules;
  const window = options.window ?? {};
  const windowed = window.from !== undefined || window.to !== undefined || window.computers !== undefined;
  try {
    for (const [fileIndex, file] of options.files.entries()) {
      try {
        const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0; // parseEvtx reports what is wrong
        const pooled = size >= INLINE_BELOW_BYTES && options.threads > 0;
        if (pooled) pool ??= pipelinePool(options.threads);
        const parse = parseEvtxStaged(
          file,
          { label: file, ...(pooled && pool ? { pool } : {}) },
          pooled ? stage : undefined,
        );
        const progress = () =>
          options.onProgress?.({
            file,
            fileIndex,
            files: options.files.length,
            bytes: Math.min(size, 4096 + parse.stats.chunks * 65536), // stats.bytes is not counted while decoding
            size,
            records,
          });
        let n = 0;
        await forEachEvent(parse, rules, (e, matched) => {
          if ((++n & 4095) === 0) progress();
          if (windowed && !inWindow(window, e.timestamp, e.computer)) return;
          records++;
          const added = matched === undefined ? pass.add(e, file) : pass.addMatched(e, file, matched);
          for (const rule of added.rules) {
            detections.add(rule, {
              recordId: e.recordId,
              timestamp: e.timestamp,
              channel: e.channel,
              computer: e.computer,
              eventId: e.eventId,
              file,
            });
          }
        });
        progress();
        analyzer.addDiagnostics(parse.diagnostics, { file });
        diagnostics.push(...parse.diagnostics);
      } catch (e) {
        if (!isTaeError(e)) throw e;
        failures.push({ file, message: e.message.includes(file) ? e.message : `${file}: ${e.message}` });
      }
    }
  } finally {
    await pool?.close();
  }
  if (failures.length === options.files.length)
    return {
      insights: failures.map((f) => errorInsight(f.message)),
      detections,
      records,
      failures,
      diagnostics,
      correlationDiagnostics: [],
    };
  const { hits, diagnostics: correlationProblems } = pass.finish();
  for (const h of hits)
    detections.add(h.correlation, { recordId: h.recordIds[0] ?? 0, timestamp: h.firstTimestamp });
  const errors: Insight[] = [
    ...failures.map((f) => errorInsight(f.message)),
    ...correlationProblems.map(correlationErrorInsight),
  ];
  const insights = [...flattenResults(analyzer.finish()), ...errors];
  return {
    insights,
    detections,
    records,
    failures,
    diagnostics,
    correlationDiagnostics: correlationProblems,
  };
}
