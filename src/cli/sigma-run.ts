/**
 * Sigma over the inputs of `tae sigma`: EVTX files decoded as a stream and matched through the
 * rules' log-source variants (as a Sigma file job), JSON or XML files judged as the Sigma data
 * endpoint judges supplied events (JSON objects, arrays or lines, the evtx crate's event JSON,
 * event-log XML; 10 MB at most). Correlations run over all inputs at the end; rules a
 * correlation references are reported only if it says `generate: true` (as the file job).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isTaeError, TaeError } from '../errors/index.js';
import type { Diagnostic } from '../evtx/index.js';
import { checkSourceFileSync, unreadableSource } from '../parse/index.js';
import { decodeFiles, lazyPool, pathFiles } from '../pipeline/index.js';
import {
  dataMatcher,
  EvtxSigmaEvent,
  MAX_TEST_DATA_BYTES,
  type MatchedEvent,
  matchRecords,
  parseTestText,
  type RuleDiagnostic,
  type SigmaEvent,
  type SigmaMatcher,
  type SigmaRule,
  SigmaSession,
} from '../sigma/index.js';
import { type Detection, Detections, type MatchPlace } from './detections.js';
import { type EventWindow, inWindow } from './rule-filter.js';
import type { SigmaRules } from './sigma-rules.js';

const EVTX_MAGIC = 'ElfFile\0';

export interface SigmaRunOptions {
  readonly inputs: readonly string[];
  readonly rules: SigmaRules;
  /** Worker threads decoding and matching EVTX files of 8 MiB or more (0: all on this thread). */
  readonly threads: number;
  /** Events outside are not evaluated (default: all). */
  readonly window?: EventWindow;
  readonly onProgress?: (input: string, events: number) => void;
  /** Matches kept for listing (all are counted; default 1,000,000). */
  readonly maxKept?: number;
  /** Matches kept per rule as its sample (default 200). */
  readonly maxSample?: number;
  /**
   * Where kept matches go as they are found (MatchStream), instead of the detections' `kept`:
   * then all are kept; `pending`, when given, is awaited before the run reads on.
   */
  readonly stream?: {
    readonly add: (d: Detection) => void;
    readonly pending?: () => Promise<void> | undefined;
  };
}

export interface SigmaRunResult {
  readonly detections: Detections;
  readonly events: number;
  readonly failures: { readonly file: string; readonly message: string }[];
  /** The decoder's diagnostics of the EVTX inputs read, each naming its file. */
  readonly diagnostics: Diagnostic[];
  /** Correlation problems (unknown references, the match cap), as every entry point reports them. */
  readonly correlationDiagnostics: RuleDiagnostic[];
}

function isEvtx(path: string): boolean {
  checkSourceFileSync(path); // a directory, FIFO or device is refused before it is opened
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(8);
    return readSync(fd, head, 0, 8, 0) === 8 && head.toString('latin1') === EVTX_MAGIC;
  } catch (e) {
    throw unreadableSource(path, e);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export async function runSigmaOver(options: SigmaRunOptions): Promise<SigmaRunResult> {
  const { loaded, ruleSet } = options.rules;
  const session = new SigmaSession(loaded, ruleSet);
  const detections = new Detections(options.maxKept ?? 1_000_000, options.maxSample, options.stream?.add);
  const failures: { file: string; message: string }[] = [];
  const diagnostics: Diagnostic[] = [];
  let events = 0;
  const pool = options.threads > 0 ? lazyPool(options.threads) : undefined;
  const found = (rule: SigmaRule, event: SigmaEvent, place: MatchPlace) => {
    for (const r of session.matched([rule], () => event, place)) detections.add(r, place, event);
  };
  const window = options.window ?? {};
  const windowed = window.from !== undefined || window.to !== undefined || window.computers !== undefined;
  const supplied = dataMatcher(loaded.rules, ruleSet);
  let progressAt = 4096;
  const counted = (file: string, n: number) => {
    events += n;
    if (events < progressAt) return;
    progressAt = events + 4096;
    options.onProgress?.(file, events);
  };
  const failed = (file: string, e: unknown) => {
    if (!isTaeError(e)) throw e;
    failures.push({ file, message: e.message.includes(file) ? e.message : `${file}: ${e.message}` });
  };
  /**
   * Consecutive EVTX inputs go through one run of the pipeline: its workers load the rules once
   * and keep them from file to file (a run per file let them go after each: on the four 238 MiB
   * files with the SigmaHQ rules, 8 workers loaded them for 2 threads, 49 s of the workers' CPU
   * against 37 s now). The workers send on only the events a rule matched: every event crossing
   * to this thread cost it 5.7 s of CPU there, 3.4 s now.
   */
  const evtxRun = async (files: readonly string[]) => {
    const decoded = await decodeFiles(
      pathFiles(files),
      { ...(pool ? { pool: pool.get } : {}), sigma: options.rules, onlyMatched: true },
      {
        event(e, { name: file }, matched) {
          counted(file, 1);
          if (windowed && !inWindow(window, e.timestamp, e.computer)) return;
          const place: MatchPlace = {
            recordId: e.recordId,
            timestamp: e.timestamp,
            eventId: e.eventId,
            computer: e.computer,
            channel: e.channel,
            file,
          };
          const reported = session.evtxRules(e, place, matched);
          for (const rule of reported) detections.add(rule, place, e);
          return reported.length === 0 ? undefined : options.stream?.pending?.();
        },
        skipped: (count, { name }) => counted(name, count),
        fileDone: ({ parse }) => diagnostics.push(...parse.diagnostics),
      },
    );
    for (const f of decoded.failures) failed(f.file, f.error);
  };
  let run: string[] = [];
  const flush = async () => {
    if (run.length > 0) await evtxRun(run);
    run = [];
  };
  try {
    for (const file of options.inputs) {
      let evtx: boolean;
      try {
        evtx = isEvtx(file);
      } catch (e) {
        await flush(); // failures stay in input order
        failed(file, e);
        continue;
      }
      if (evtx) {
        run.push(file);
        continue;
      }
      await flush();
      try {
        counted(
          file,
          matchSupplied(file, supplied, (m) => {
            const evtx = m.event instanceof EvtxSigmaEvent ? m.event.evtx : undefined;
            const eventId = evtx?.eventId ?? Number(m.event.get('EventID'));
            const computer = text(m.event.get('Computer'));
            // Supplied events are matched as the data endpoint matches them, then windowed.
            if (windowed && !inWindow(window, m.timestamp, computer)) return;
            const channel = text(m.event.get('Channel'));
            found(m.rule, m.event, {
              recordId: m.recordId ?? m.ordinal,
              timestamp: m.timestamp,
              ...(Number.isInteger(eventId) ? { eventId } : {}),
              ...(computer ? { computer } : {}),
              ...(channel ? { channel } : {}),
              file,
            });
          }),
        );
      } catch (e) {
        failed(file, e);
      }
    }
    await flush();
  } finally {
    await pool?.close();
  }
  const correlation = session.finish();
  for (const h of correlation.hits)
    detections.add(h.correlation, {
      recordId: h.recordIds[0] ?? 0,
      timestamp: h.firstTimestamp,
      file: 'all inputs',
    });
  return { detections, events, failures, diagnostics, correlationDiagnostics: correlation.diagnostics };
}

/**
 * JSON or XML read as the data endpoint reads it (whole, so bounded in size); returns the number
 * of events read.
 */
function matchSupplied(file: string, matcher: SigmaMatcher, onMatch: (m: MatchedEvent) => void): number {
  const size = statSync(file).size; // isEvtx opened and read it already
  if (size > MAX_TEST_DATA_BYTES)
    throw new TaeError(
      'TOO_LARGE',
      `${file}: JSON and XML inputs are read whole, at most ${MAX_TEST_DATA_BYTES / 1024 / 1024} MB (convert large logs to EVTX or split them)`,
    );
  let records: ReturnType<typeof parseTestText>;
  try {
    records = parseTestText(readFileSync(file, 'utf8'));
  } catch (e) {
    // The endpoint's "Invalid test data format" is a usage error there, an input error here.
    if (isTaeError(e) && e.code === 'INVALID_ARGUMENT') {
      const why = typeof e.context.why === 'string' ? ` (${e.context.why})` : '';
      throw new TaeError('INPUT_UNREADABLE', `${file}: not EVTX, JSON or event XML: ${e.message}${why}`, {
        cause: e,
      });
    }
    throw e;
  }
  for (const m of matchRecords(records, matcher)) onMatch(m);
  return records.length;
}
