/**
 * `tae analyze`'s work, in this process and without a data directory: the `winevtx` parse
 * job's pipeline (src/jobs/winevtx.ts) over files read in place. Each file is decoded once
 * (large ones on the pool, whose workers match the rules and, as the job's, digest each event
 * unless YARA needs it whole) and goes through the job's pipeline (analysis/sigma-pass.ts);
 * every reported match is also kept with its rule for the summary, the JSON results and the
 * report. Insights are those of the job, in its order. With YARA rules, the payloads of new
 * events are scanned as the job scans them (src/payloads' scan queue on the YARA workers).
 */
import {
  correlationErrorInsight,
  createAnalyzer,
  createSigmaPass,
  type EventHead,
  flattenResults,
} from '../analysis/index.js';
import type { Diagnostic, EvtxEvent } from '../evtx/index.js';
import { errorInsight, type Insight } from '../insights/index.js';
import { eventDescriber, isBuiltinDescriber } from '../lookup/index.js';
import { createPayloadScanQueue, type PayloadScanSummary } from '../payloads/index.js';
import {
  type DecodeFilesResult,
  decodeFiles,
  type FileInProgress,
  lazyPool,
  pathFiles,
} from '../pipeline/index.js';
import type { RuleDiagnostic, SigmaRule } from '../sigma/index.js';
import type { CompiledRuleSet, YaraEngine } from '../yara/index.js';
import { Detections } from './detections.js';
import { type EventWindow, inWindow } from './rule-filter.js';
import type { SigmaRules } from './sigma-rules.js';

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
  /** Scan the payloads of events with these rules, on this engine's workers. */
  readonly yara?: { readonly rules: CompiledRuleSet; readonly engine: YaraEngine };
  /** Worker threads decoding (and matching, digesting) the files (0: all on this thread). */
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
  /** With `yara`: what the payload scan found. */
  readonly payloadScan?: PayloadScanSummary;
}

export async function analyzeFiles(options: AnalyzeOptions): Promise<AnalyzeResult> {
  const { sigma } = options;
  const { yara } = options;
  const describe = eventDescriber();
  const analyzer = createAnalyzer({
    sigma: sigma !== undefined,
    describe,
    ...(yara === undefined ? {} : { yaraPayloads: true }),
  });
  const scans =
    yara === undefined
      ? undefined
      : createPayloadScanQueue({
          scan: (targets) =>
            yara.engine.scanBatch({
              rules: yara.rules,
              targets,
              timeoutMs: yara.engine.options.scanTimeoutMs,
            }),
          concurrency: yara.engine.options.threads,
        });
  const pass = createSigmaPass({ analyzer, ...(sigma === undefined ? {} : { sigma }) });
  const detections = new Detections();
  const diagnostics: Diagnostic[] = [];
  const pool = options.threads > 0 ? lazyPool(options.threads) : undefined;
  let records = 0;
  const window = options.window ?? {};
  const windowed = window.from !== undefined || window.to !== undefined || window.computers !== undefined;
  const progress = ({ name, index, size, parse }: FileInProgress) =>
    options.onProgress?.({
      file: name,
      fileIndex: index,
      files: options.files.length,
      bytes: Math.min(size, 4096 + parse.stats.chunks * 65536), // stats.bytes is not counted while decoding
      size,
      records,
    });
  let n = 0;
  const found = (rules: readonly SigmaRule[], e: EventHead, file: string, event: EvtxEvent | undefined) => {
    for (const rule of rules)
      detections.add(
        rule,
        {
          recordId: e.recordId,
          timestamp: e.timestamp,
          channel: e.channel,
          computer: e.computer,
          eventId: e.eventId,
          file,
        },
        event,
      );
  };
  let decoded: DecodeFilesResult;
  try {
    decoded = await decodeFiles(
      pathFiles(options.files),
      {
        ...(pool ? { pool: pool.get } : {}),
        ...(sigma === undefined ? {} : { sigma }),
        // As the job: the workers digest each event and send on only those a rule matched, unless
        // the payload scan needs every event here.
        digest: scans === undefined && isBuiltinDescriber(describe),
      },
      {
        digest(d, e, file, matched) {
          if ((++n & 4095) === 0) progress(file);
          if (windowed && !inWindow(window, d.timestamp, d.computer)) return undefined;
          records++;
          found(pass.addDigest(d, file.name, matched, e).rules, d, file.name, e);
          return undefined;
        },
        event(e, file, matched) {
          if ((++n & 4095) === 0) progress(file);
          if (windowed && !inWindow(window, e.timestamp, e.computer)) return;
          records++;
          const added = pass.add(e, file.name, matched);
          found(added.rules, e, file.name, e);
          return added.fresh ? scans?.add(e, file.name) : undefined;
        },
        fileDone(file) {
          progress(file);
          analyzer.addDiagnostics(file.parse.diagnostics, { file: file.name });
          diagnostics.push(...file.parse.diagnostics);
        },
      },
    );
  } finally {
    await pool?.close();
  }
  const failures = decoded.failures.map(({ file, error }) => ({
    file,
    message: error.message.includes(file) ? error.message : `${file}: ${error.message}`,
  }));
  if (failures.length === options.files.length)
    return {
      insights: failures.map((f) => errorInsight(f.message)),
      detections,
      records,
      failures,
      diagnostics,
      correlationDiagnostics: [],
    };
  const payloadScan = await scans?.finish();
  if (payloadScan !== undefined) analyzer.addPayloadScan(payloadScan);
  const { hits, diagnostics: correlationProblems } = pass.finish();
  for (const h of hits)
    detections.add(h.correlation, { recordId: h.recordIds[0] ?? 0, timestamp: h.firstTimestamp });
  const errors: Insight[] = [
    ...failures.map((f) => errorInsight(f.message)),
    ...correlationProblems.map(correlationErrorInsight),
    ...(payloadScan?.error === undefined
      ? []
      : [errorInsight(`YARA payload scanning stopped: ${errorText(payloadScan.error)}`)]),
  ];
  const insights = [...flattenResults(analyzer.finish()), ...errors];
  return {
    insights,
    detections,
    records,
    failures,
    diagnostics,
    correlationDiagnostics: correlationProblems,
    ...(payloadScan === undefined ? {} : { payloadScan }),
  };
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
