/**
 * Payloads scanned as the events stream by: events in, each distinct payload handed, in
 * batches (one worker task costs far more than scanning a few KB), to a scan function the
 * caller supplies (YARA-X on its workers, each buffer under its timeout); matches are kept with
 * a clipped preview, in the order the payloads were found. Pure orchestration: the scan is
 * injected, so this module stays free of I/O. Bounded: payload bytes and payloads waiting or
 * being scanned (past either cap `add` returns a promise to wait on), payloads remembered for
 * de-duplication, matches and records kept.
 */
import { createHash } from 'node:crypto';
import type { EvtxEvent } from '../evtx/index.js';
import { createPayloadExtractor } from './extractor.js';
import type { PayloadLimits } from './limits.js';
import { payloadBytes } from './payload-set.js';
import type { Payload, PayloadDiagnosticCode, PayloadRecord } from './types.js';

/** A rule that matched (the fields of a YARA-X match the results show). */
export interface PayloadScanRule {
  readonly rule: string;
  readonly namespace: string;
  readonly tags: readonly string[];
}

export type PayloadScanOutcome =
  | { readonly kind: 'matched'; readonly matches: readonly PayloadScanRule[] }
  | { readonly kind: 'timeout'; readonly timeoutMs: number }
  | { readonly kind: 'failed'; readonly message: string };

/** A payload some rule matched, without its content (only a clipped preview is kept). */
export interface PayloadMatch {
  readonly kind: Payload['kind'];
  readonly computer: string;
  readonly label?: string;
  readonly provenance: Payload['provenance'];
  readonly partial: boolean;
  readonly truncated: boolean;
  readonly sha256: string;
  readonly size: number;
  readonly binary: boolean;
  /** At most `previewChars` characters of the content (bytes shown as printable ASCII or '.'). */
  readonly preview: string;
  readonly rules: readonly PayloadScanRule[];
  /** The first `maxRecords` records that carried it. */
  readonly records: PayloadRecord[];
  /** Every record that carried it. */
  occurrences: number;
}

export interface PayloadScanSummary {
  /** Distinct payloads scanned, and their bytes. */
  readonly scanned: number;
  readonly bytes: number;
  /** Payloads seen again (same kind, computer and content): not scanned again. */
  readonly repeats: number;
  readonly timeouts: number;
  readonly failed: number;
  /** The first scan failure or timeout, for the diagnostic. */
  readonly firstProblem: string | null;
  /** Scanning stopped: the scan function threw this (a missing native binary, a cancel). */
  readonly error: unknown;
  readonly matches: readonly PayloadMatch[];
  /** Matched payloads past `maxMatches`, counted only. */
  readonly matchesDropped: number;
  /** Extractor diagnostics by code (cuts at the payload bounds, partial script blocks). */
  readonly diagnostics: Readonly<Partial<Record<PayloadDiagnosticCode, number>>>;
}

export interface PayloadScanQueueOptions {
  /** Scans a batch of payloads: one outcome per buffer, in order (one worker task for many). */
  readonly scan: (batch: readonly Uint8Array[]) => Promise<readonly PayloadScanOutcome[]>;
  /** Batches scanned at once (default 2). */
  readonly concurrency?: number;
  /** A batch is sent when it holds this many payloads (default 64)… */
  readonly batchCount?: number;
  /** …or this many bytes (default 1 MiB), when the queue is full, or at the end. */
  readonly batchBytes?: number;
  /** Payload bytes waiting or being scanned before `add` asks the caller to wait (default 32 MiB). */
  readonly maxBytesInFlight?: number;
  /** Matched payloads kept (default 5,000). */
  readonly maxMatches?: number;
  /** Records kept per matched payload (default 20). */
  readonly maxRecords?: number;
  /** Payloads remembered to scan each content once (default 100,000; later ones are scanned each time). */
  readonly maxDistinct?: number;
  /** Characters of preview (default 300). */
  readonly previewChars?: number;
  readonly limits?: Partial<PayloadLimits>;
}

export interface PayloadScanQueue {
  /** Extracts the event's payloads and queues their scans; a promise when the caller should wait. */
  add(event: EvtxEvent, file?: string): Promise<void> | undefined;
  /** Emits incomplete script blocks, waits for every scan, and sums up. */
  finish(): Promise<PayloadScanSummary>;
}

/** A payload waiting for its scan: its bytes, and what a match would report (no full text kept). */
interface Job {
  readonly bytes: Uint8Array;
  readonly key: string | null;
  readonly seq: number;
  readonly found: Omit<PayloadMatch, 'sha256' | 'rules' | 'records' | 'occurrences'>;
  readonly records: readonly PayloadRecord[];
}

/** A payload being scanned collects the records of its repeats; a scanned one is its match or null. */
type Seen = { pending: true; records: PayloadRecord[]; occurrences: number } | PayloadMatch | null;

const printable = (bytes: Uint8Array, max: number): string => {
  let s = '';
  for (let i = 0; i < bytes.length && s.length < max; i++) {
    const b = bytes[i]!;
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  }
  return s;
};

/** A copy of at most `max` characters: a slice would keep the whole text alive. */
const copyOf = (s: string, max: number): string => `${s.slice(0, max)} `.slice(0, -1);

/** Payloads queued or being scanned, beyond which `add` asks the caller to wait (tiny payloads). */
const MAX_JOBS_IN_FLIGHT = 4096;

export function createPayloadScanQueue(options: PayloadScanQueueOptions): PayloadScanQueue {
  const concurrency = options.concurrency ?? 2;
  const batchCount = options.batchCount ?? 64;
  const batchBytes = options.batchBytes ?? 1024 * 1024;
  const maxInFlight = options.maxBytesInFlight ?? 32 * 1024 * 1024;
  const maxMatches = options.maxMatches ?? 5000;
  const maxRecords = options.maxRecords ?? 20;
  const maxDistinct = options.maxDistinct ?? 100_000;
  const previewChars = options.previewChars ?? 300;
  const extractor = createPayloadExtractor(options.limits ? { limits: options.limits } : {});
  const seen = new Map<string, Seen>();
  const waiting: Job[] = [];
  let waitingBytes = 0;
  let flushing = false;
  /** With the order their payloads were found in: scans finish in any order, results must not. */
  const matches: { seq: number; match: PayloadMatch }[] = [];
  let seq = 0;
  let running = 0;
  let inFlight = 0;
  let drained: (() => void)[] = [];
  let stats = { scanned: 0, bytes: 0, repeats: 0, timeouts: 0, failed: 0, dropped: 0 };
  let firstProblem: string | null = null;
  let error: unknown;

  const full = (): boolean => inFlight > maxInFlight || waiting.length > MAX_JOBS_IN_FLIGHT;

  const settle = (): void => {
    if (full() && running > 0) return;
    const wake = drained;
    drained = [];
    for (const w of wake) w();
  };

  const record = (job: Job, outcome: PayloadScanOutcome): void => {
    const held = job.key === null ? undefined : seen.get(job.key);
    const repeats = held !== null && held !== undefined && 'pending' in held ? held : undefined;
    let kept: PayloadMatch | null = null;
    if (outcome.kind === 'timeout' || outcome.kind === 'failed') {
      if (outcome.kind === 'timeout') stats.timeouts++;
      else stats.failed++;
      firstProblem ??=
        outcome.kind === 'timeout'
          ? `a ${job.found.kind} payload scan timed out after ${Math.ceil(outcome.timeoutMs / 1000)} s`
          : `a ${job.found.kind} payload could not be scanned: ${outcome.message}`;
    } else if (outcome.matches.length > 0) {
      if (matches.length >= maxMatches) stats.dropped++;
      else {
        kept = {
          ...job.found,
          sha256: createHash('sha256').update(job.bytes).digest('hex'),
          rules: outcome.matches.map((m) => ({ rule: m.rule, namespace: m.namespace, tags: [...m.tags] })),
          records: [...job.records, ...(repeats?.records ?? [])].slice(0, maxRecords),
          occurrences: repeats?.occurrences ?? job.records.length,
        };
        matches.push({ seq: job.seq, match: kept });
      }
    }
    if (job.key !== null) seen.set(job.key, kept);
  };

  const run = async (batch: readonly Job[], bytes: number): Promise<void> => {
    try {
      const outcomes = await options.scan(batch.map((j) => j.bytes));
      for (const [i, job] of batch.entries()) {
        stats.scanned++;
        stats.bytes += job.bytes.length;
        record(job, outcomes[i] ?? { kind: 'failed', message: 'the scan returned no outcome' });
      }
    } catch (e) {
      error ??= e ?? new Error('payload scan failed');
    } finally {
      running--;
      inFlight -= bytes;
      pump();
      settle();
    }
  };

  /** Sends the next batches while slots are free: whole batches, or what waits when full or at the end. */
  function pump(): void {
    while (running < concurrency && waiting.length > 0 && error === undefined) {
      if (!flushing && !full() && waiting.length < batchCount && waitingBytes < batchBytes) break;
      let n = 0;
      let bytes = 0;
      while (
        n < waiting.length &&
        n < batchCount &&
        (n === 0 || bytes + waiting[n]!.bytes.length <= batchBytes)
      )
        bytes += waiting[n++]!.bytes.length;
      waitingBytes -= bytes;
      running++;
      void run(waiting.splice(0, n), bytes);
    }
    if (error !== undefined) {
      inFlight -= waitingBytes;
      waiting.length = 0;
      waitingBytes = 0;
      settle();
    }
  }

  const queue = (payload: Payload): void => {
    const bytes = payloadBytes(payload);
    const binary = payload.text === undefined;
    const hash = createHash('sha256').update(`${payload.kind}\u0000${binary ? 'b' : 't'}\u0000`);
    let key: string | null = hash.update(payload.computer).update('\u0000').update(bytes).digest('base64');
    const known = seen.get(key);
    if (known !== undefined) {
      stats.repeats++;
      if (known === null) return;
      known.occurrences += payload.records.length;
      for (const r of payload.records) if (known.records.length < maxRecords) known.records.push(r);
      return;
    }
    if (seen.size < maxDistinct)
      seen.set(key, { pending: true, records: [], occurrences: payload.records.length });
    else key = null;
    inFlight += bytes.length;
    waitingBytes += bytes.length;
    waiting.push({
      bytes,
      key,
      seq: seq++,
      records: payload.records.slice(0, maxRecords),
      found: {
        kind: payload.kind,
        computer: copyOf(payload.computer, 1000),
        ...(payload.label !== undefined ? { label: copyOf(payload.label, 1000) } : {}),
        provenance: payload.provenance,
        partial: payload.partial,
        truncated: payload.truncated,
        size: bytes.length,
        binary,
        preview: binary ? printable(bytes, previewChars) : copyOf(payload.text, previewChars),
      },
    });
    pump();
  };

  const wait = (): Promise<void> | undefined =>
    full() && error === undefined ? new Promise<void>((resolve) => drained.push(resolve)) : undefined;

  return {
    add(e, file) {
      if (error !== undefined) return undefined;
      for (const p of extractor.add(e, file)) queue(p);
      return wait();
    },
    async finish() {
      if (error === undefined) for (const p of extractor.finish()) queue(p);
      flushing = true;
      pump();
      while (running > 0 || (waiting.length > 0 && error === undefined))
        await new Promise<void>((resolve) => drained.push(resolve));
      const diagnostics: Partial<Record<PayloadDiagnosticCode, number>> = {};
      for (const d of extractor.diagnostics) diagnostics[d.code] = (diagnostics[d.code] ?? 0) + 1;
      const summary: PayloadScanSummary = {
        scanned: stats.scanned,
        bytes: stats.bytes,
        repeats: stats.repeats,
        timeouts: stats.timeouts,
        failed: stats.failed,
        firstProblem,
        error,
        matches: matches.sort((a, b) => a.seq - b.seq).map((m) => m.match),
        matchesDropped: stats.dropped,
        diagnostics,
      };
      stats = { scanned: 0, bytes: 0, repeats: 0, timeouts: 0, failed: 0, dropped: 0 };
      return summary;
    },
  };
}
