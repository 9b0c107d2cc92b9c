/**
 * What the pool's workers do beyond decoding (worker.ts), and the events that come back: each
 * with the Sigma rules a worker matched, or none when the main thread must match it (a chunk
 * decoded inline, or rules a worker could not load); and, when asked, with its index row made
 * there, packed, so that the event need not go on to the thread that stages it.
 */
import { type DigestColumns, digestAt, digestCount, type EventDigest } from '../analysis/index.js';
import type { DecodedChunk, EvtxEvent } from '../evtx/index.js';
import { eventDescriptions } from '../lookup/index.js';
import type { Descriptions } from '../messages/index.js';
import { DecodePool, type EvtxParse } from '../parse/index.js';
import type { PackedRows, RowRef } from '../rows/index.js';
import {
  type CompiledSigma,
  type PortableSigma,
  portableFits,
  referencedBy,
  type SigmaRule,
} from '../sigma/index.js';

export interface PipelineStage {
  /** Sent with every task: the version and the shared texts only (titles stay here). */
  readonly sigma?: Pick<PortableSigma, 'version' | 'shared'>;
  /** Make each event's index row; `messages`: with the built-in lookup data's messages. */
  readonly rows?: RowsStage;
  /**
   * Make each event's digest (the analysis module's), with the built-in messages, and send the
   * event itself only when it matched a rule: the consumer needs nothing else of it.
   */
  readonly digest?: true;
  /**
   * Send back only the events a rule matched, and how many events the chunk had: a consumer
   * that counts the others and reads only the matched (`tae sigma`) need not receive them all.
   */
  readonly onlyMatched?: true;
  /**
   * With `digest`: send a matched event on only when one of these rules (positions) matched it,
   * the rules a correlation reads fields of; without, every matched event.
   */
  readonly eventRules?: readonly number[];
}

export interface RowsStage {
  readonly messages: boolean;
}

/**
 * A chunk a worker matched: per record, the positions of the matched rules, or null for none;
 * and (`rows`) the index row of each record that has an event, in record order.
 */
export interface StagedChunk extends DecodedChunk {
  readonly sigma?: readonly (readonly number[] | null)[];
  readonly rows?: PackedRows;
  /**
   * Each record's digest (null for a record without an event), in record order. A chunk with
   * digests has no `records` (the count stays in `recordCount`): only `matchedEvents` travel.
   */
  readonly digests?: DigestColumns;
  /** With `digests` or `onlyMatched`: the events of the records a rule matched (`sigma`), in record order. */
  readonly matchedEvents?: readonly EvtxEvent[];
  /** With `onlyMatched`: the chunk's records that have an event, matched or not. */
  readonly events?: number;
  /** With `eventRules`: the record positions of `matchedEvents` (the others matched came without). */
  readonly matchedAt?: Int32Array;
}

const workerUrl = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** What the pool's workers are given when they start: the Windows message texts, for rows. */
export interface PipelineWorkerData {
  readonly descriptions: Descriptions;
}

/**
 * A decode pool whose workers also run the stage of each task. Their young generation is a
 * decode worker's (parse/pool.ts DECODE_WORKER_YOUNG_MB). It was twice that on up to two
 * workers, for fewer scavenges of a span's rows, digests and matches; with the SigmaHQ rules in
 * every worker the 1 GB private job then peaked at 594–597 MiB, and at 570–577 with 16 MiB, in
 * the same CPU (46.3–52.3 s against 46.7–47.2, alternated on a loaded machine).
 */
export const pipelinePool = (threads: number): DecodePool =>
  new DecodePool(
    threads,
    workerUrl,
    undefined,
    (): PipelineWorkerData => ({ descriptions: eventDescriptions() }),
  );

export interface LazyPool {
  readonly get: () => DecodePool;
  readonly close: () => Promise<void>;
}

/** A pipeline pool started only when a file first needs it (the engine's, a CLI run's, a build's). */
export function lazyPool(threads: number): LazyPool {
  let pool: DecodePool | null = null;
  return {
    get: () => {
      pool ??= pipelinePool(threads);
      return pool;
    },
    close: async () => {
      await pool?.close();
      pool = null;
    },
  };
}

const NONE: readonly SigmaRule[] = [];

/**
 * Chunks per pool task when the workers digest: a task's results are then small (digests,
 * rows, matched events), and each chunk's records die before the next is decoded
 * (worker-stages.ts), so larger tasks cost no memory per record, only fewer hand-offs. Each
 * task's result waits for the job's thread, which hands the worker its next task.
 */
export const DIGEST_SPAN_CHUNKS = 8;

/**
 * The stage that has the pool's workers match `sigma`'s rules (unless it has no portable form
 * that fits the rules: then they are matched on this thread) and make the index rows `rows`
 * asks for, and digests when `digest` asks and no event needs matching here; the rules the
 * workers' matches name. None when the workers have nothing to do.
 */
export function pipelineStage(
  sigma: CompiledSigma | undefined,
  rows: RowsStage | undefined,
  want: StageWants = {},
):
  | {
      readonly stage: PipelineStage;
      readonly rules: readonly SigmaRule[] | undefined;
      /** Chunks per pool task, when the stage's results call for their own (DIGEST_SPAN_CHUNKS). */
      readonly spanChunks: number | undefined;
    }
  | undefined {
  const portable = sigma?.portable;
  const matching = portable !== undefined && portableFits(portable, sigma!.loaded.rules);
  const digesting = want.digest === true && (sigma === undefined || matching);
  const matchedOnly = want.onlyMatched === true && matching && rows === undefined && !digesting;
  const eventRules =
    digesting && matching && want.correlatedEventsOnly === true ? correlatedRules(sigma!.loaded) : undefined;
  if (!matching && rows === undefined && !digesting) return undefined;
  return {
    stage: {
      ...(matching ? { sigma: { version: portable.version, shared: portable.shared } } : {}),
      ...(rows === undefined ? {} : { rows }),
      ...(digesting ? { digest: true as const } : {}),
      ...(matchedOnly ? { onlyMatched: true as const } : {}),
      ...(eventRules === undefined ? {} : { eventRules }),
    },
    rules: matching ? sigma!.loaded.rules : undefined,
    // Small results, as a digesting stage's: the same larger tasks.
    spanChunks: digesting || matchedOnly ? DIGEST_SPAN_CHUNKS : undefined,
  };
}

export interface StageWants {
  /** Digests (see PipelineStage). */
  readonly digest?: boolean;
  /** Only matched events come back (StagedChunk's `events` counts the others), when matched there. */
  readonly onlyMatched?: boolean;
  /** With `digest`: only the matched events a correlation reads come back (`eventRules`). */
  readonly correlatedEventsOnly?: boolean;
}

/** Positions of the rules a correlation references: what it reads of their matched events. */
function correlatedRules(loaded: CompiledSigma['loaded']): number[] {
  const refs = new Set(loaded.correlations.flatMap((c) => c.rules));
  const out: number[] = [];
  loaded.rules.forEach((r, i) => {
    if (referencedBy(refs, r)) out.push(i);
  });
  return out;
}

/** What `forEachEvent` hands on: each event, or each event's digest when a worker made one. */
export interface StagedVisitor {
  event(
    e: EvtxEvent,
    matched: readonly SigmaRule[] | undefined,
    row: RowRef | undefined,
  ): undefined | Promise<void>;
  /** `event`: the event itself, sent on only when it matched a rule. */
  digest(
    d: EventDigest,
    event: EvtxEvent | undefined,
    matched: readonly SigmaRule[],
    row: RowRef | undefined,
  ): undefined | Promise<void>;
  /** Events a worker matched no rule on and did not send (an `onlyMatched` stage's). */
  skipped?(count: number): void;
}

/**
 * Each event of `parse`, with the rules a worker matched (positions into `rules`,
 * the rules the portable form was made from), or `undefined` when it was not matched there;
 * and its index row when a worker made one. A chunk a worker digested goes to `visitor.digest`;
 * of a chunk that came with only its matched events, the others are counted (`skipped`).
 */
export async function forEachEvent(
  parse: EvtxParse,
  rules: readonly SigmaRule[] | undefined,
  visitor: StagedVisitor,
  /** Awaited after each chunk. */
  ready?: () => Promise<void> | undefined,
): Promise<void> {
  for await (const chunk of parse.chunks()) {
    const staged = chunk as StagedChunk;
    if (staged.events !== undefined && rules !== undefined && staged.sigma !== undefined) {
      await matchedOnly(staged, rules, visitor);
      const waiting = ready?.();
      if (waiting !== undefined) await waiting;
      continue;
    }
    const sigma = rules === undefined ? undefined : staged.sigma;
    const packed = staged.rows;
    const digests = staged.digests;
    const records = chunk.records;
    const matchedEvents = staged.matchedEvents;
    const eventAt = staged.matchedAt;
    let matchedAt = 0;
    let rowAt = 0;
    const count = digests === undefined ? records.length : digestCount(digests);
    for (let i = 0; i < count; i++) {
      const digest = digests === undefined ? undefined : digestAt(digests, i);
      const e =
        digests === undefined
          ? records[i]!.event
          : digest != null && staged.sigma?.[i] != null && (eventAt === undefined || eventAt[matchedAt] === i)
            ? matchedEvents![matchedAt++]
            : undefined;
      if (e === undefined && (digest === undefined || digest === null)) continue;
      const row = packed === undefined ? undefined : { packed, at: rowAt++ };
      const at = sigma?.[i];
      const matched = at === null || at === undefined ? NONE : at.map((k) => rules![k]!);
      const wait =
        digest !== undefined && digest !== null
          ? visitor.digest(digest, e, matched, row)
          : visitor.event(e!, sigma === undefined ? undefined : matched, row);
      if (wait !== undefined) await wait; // the visitor's own work is behind (payload scans)
    }
    const waiting = ready?.();
    if (waiting !== undefined) await waiting;
  }
}

/** A chunk of an `onlyMatched` stage: its matched events in record order, the others counted. */
async function matchedOnly(
  staged: StagedChunk,
  rules: readonly SigmaRule[],
  visitor: StagedVisitor,
): Promise<void> {
  const events = staged.matchedEvents ?? [];
  visitor.skipped?.(staged.events! - events.length);
  let k = 0;
  for (const at of staged.sigma!) {
    if (at === null) continue;
    const wait = visitor.event(
      events[k++]!,
      at.map((r) => rules[r]!),
      undefined,
    );
    if (wait !== undefined) await wait;
  }
}
