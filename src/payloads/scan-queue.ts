/**
 * Payloads scanned as the events stream by: events in, each distinct payload handed to a scan
 * function the caller supplies (YARA-X on its workers, with its timeout), matches kept with a
 * clipped preview. Pure orchestration: the scan is injected, so this module stays free of I/O.
 * Bounded: payload bytes waiting or being scanned (past the cap, `add` returns a promise to
 * wait on), payloads remembered for de-duplication, matches and records kept.
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
  readonly scan: (bytes: Uint8Array) => Promise<PayloadScanOutcome>;
  /** Scans running at once (default 4). */
  readonly concurrency?: number;
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

type Seen = { pending: true; records: PayloadRecord[]; occurrences: number } | PayloadMatch | null;

const printable = (bytes: Uint8Array, max: number): string => {
  let s = '';
  for (let i = 0; i < bytes.length && s.length < max; i++) {
    const b = bytes[i]!;
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
  }
  return s;
};

export function createPayloadScanQueue(options: PayloadScanQueueOptions): PayloadScanQueue {
  const concurrency = options.concurrency ?? 4;
  const maxInFlight = options.maxBytesInFlight ?? 32 * 1024 * 1024;
  const maxMatches = options.maxMatches ?? 5000;
  const maxRecords = options.maxRecords ?? 20;
  const maxDistinct = options.maxDistinct ?? 100_000;
  const previewChars = options.previewChars ?? 300;
  const extractor = createPayloadExtractor(options.limits ? { limits: options.limits } : {});
  const seen = new Map<string, Seen>();
  const waiting: { payload: Payload; bytes: Uint8Array; key: string | null; sha256: string; seq: number }[] =
    [];
  /** With the order their payloads were found in: scans finish in any order, results must not. */
  const matches: { seq: number; match: PayloadMatch }[] = [];
  let seq = 0;
  let running = 0;
  let inFlight = 0;
  let drained: (() => void)[] = [];
  let stats = { scanned: 0, bytes: 0, repeats: 0, timeouts: 0, failed: 0, dropped: 0 };
  let firstProblem: string | null = null;
  let error: unknown;

  const settle = (): void => {
    if (inFlight > maxInFlight && running > 0) return;
    const wake = drained;
    drained = [];
    for (const w of wake) w();
  };

  const record = (job: (typeof waiting)[number], outcome: PayloadScanOutcome): void => {
    const { key, payload, sha256, bytes } = job;
    const pending = key === null ? undefined : seen.get(key);
    const records = pending !== null && pending !== undefined && 'pending' in pending ? pending.records : [];
    const occurrences =
      pending !== null && pending !== undefined && 'pending' in pending
        ? pending.occurrences
        : payload.records.length;
    let kept: PayloadMatch | null = null;
    if (outcome.kind === 'timeout' || outcome.kind === 'failed') {
      if (outcome.kind === 'timeout') stats.timeouts++;
      else stats.failed++;
      firstProblem ??=
        outcome.kind === 'timeout'
          ? `a ${payload.kind} payload scan timed out after ${Math.ceil(outcome.timeoutMs / 1000)} s`
          : `a ${payload.kind} payload could not be scanned: ${outcome.message}`;
    } else if (outcome.matches.length > 0) {
      if (matches.length >= maxMatches) stats.dropped++;
      else {
        kept = {
          kind: payload.kind,
          computer: payload.computer,
          ...(payload.label !== undefined ? { label: payload.label } : {}),
          provenance: payload.provenance,
          partial: payload.partial,
          truncated: payload.truncated,
          sha256,
          size: bytes.length,
          binary: payload.text === undefined,
          preview:
            payload.text === undefined
              ? printable(bytes, previewChars)
              : `${payload.text.slice(0, previewChars)} `.slice(0, -1), // a copy, not a slice of the whole text
          rules: outcome.matches.map((m) => ({ rule: m.rule, namespace: m.namespace, tags: [...m.tags] })),
          records: [...payload.records, ...records].slice(0, maxRecords),
          occurrences,
        };
        matches.push({ seq: job.seq, match: kept });
      }
    }
    if (key !== null) seen.set(key, kept);
  };

  const run = async (job: (typeof waiting)[number]): Promise<void> => {
    try {
      const outcome = await options.scan(job.bytes);
      stats.scanned++;
      stats.bytes += job.bytes.length;
      record(job, outcome);
    } catch (e) {
      error ??= e ?? new Error('payload scan failed');
    } finally {
      running--;
      inFlight -= job.bytes.length;
      pump();
      settle();
    }
  };

  function pump(): void {
    while (running < concurrency && waiting.length > 0 && error === undefined) {
      running++;
      void run(waiting.shift()!);
    }
    if (error !== undefined) {
      for (const job of waiting.splice(0)) inFlight -= job.bytes.length;
      settle();
    }
  }

  const queue = (payload: Payload): void => {
    const bytes = payloadBytes(payload);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    let key: string | null =
      `${payload.kind}\u0000${payload.text === undefined ? 'b' : 't'}\u0000${payload.computer}\u0000${sha256}`;
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
    waiting.push({ payload, bytes, key, sha256, seq: seq++ });
    pump();
  };

  const wait = (): Promise<void> | undefined =>
    inFlight > maxInFlight && error === undefined
      ? new Promise<void>((resolve) => drained.push(resolve))
      : undefined;

  return {
    add(e, file) {
      if (error !== undefined) return undefined;
      for (const p of extractor.add(e, file)) queue(p);
      return wait();
    },
    async finish() {
      if (error === undefined) for (const p of extractor.finish()) queue(p);
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
