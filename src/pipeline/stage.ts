/**
 * What the pool's workers do beyond decoding (worker.ts), and the events that come back: each
 * with the Sigma rules a worker matched, or none when the main thread must match it (a chunk
 * decoded inline, or rules a worker could not load).
 */
import type { DecodedChunk, EvtxEvent } from '../evtx/index.js';
import { DecodePool, type EvtxParse } from '../parse/index.js';
import { type CompiledSigma, type PortableSigma, portableFits, type SigmaRule } from '../sigma/index.js';

export interface PipelineStage {
  /** Sent with every task: the version and the shared texts only (titles stay here). */
  readonly sigma?: Pick<PortableSigma, 'version' | 'shared'>;
}

/** A chunk a worker matched: per record, the positions of the matched rules, or null for none. */
export interface StagedChunk extends DecodedChunk {
  readonly sigma?: readonly (readonly number[] | null)[];
}

const workerUrl = new URL(`./worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** A decode pool whose workers also run the stage of each task. */
export const pipelinePool = (threads: number): DecodePool => new DecodePool(threads, workerUrl);

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
 * The stage that has the pool's workers match `sigma`'s rules, and the rules their matches
 * name; none (rules matched on this thread) without a portable form that fits the rules.
 */
export function sigmaStage(
  sigma: CompiledSigma | undefined,
): { readonly stage: PipelineStage; readonly rules: readonly SigmaRule[] } | undefined {
  const portable = sigma?.portable;
  if (portable === undefined || !portableFits(portable, sigma!.loaded.rules)) return undefined;
  const { version, shared } = portable;
  return { stage: { sigma: { version, shared } }, rules: sigma!.loaded.rules };
}

/**
 * Each event of `parse`, with the rules a worker matched (positions into `rules`, the rules the
 * portable form was made from), or `undefined` when it was not matched there.
 */
export async function forEachEvent(
  parse: EvtxParse,
  rules: readonly SigmaRule[] | undefined,
  visit: (e: EvtxEvent, matched: readonly SigmaRule[] | undefined) => undefined | Promise<void>,
  /** Awaited after each chunk. */
  ready?: () => Promise<void> | undefined,
): Promise<void> {
  for await (const chunk of parse.chunks()) {
    const sigma = rules === undefined ? undefined : (chunk as StagedChunk).sigma;
    const records = chunk.records;
    for (let i = 0; i < records.length; i++) {
      const e = records[i]!.event;
      if (e === undefined) continue;
      const at = sigma?.[i];
      const wait =
        sigma === undefined
          ? visit(e, undefined)
          : visit(e, at === null || at === undefined ? NONE : at.map((k) => rules![k]!));
      if (wait !== undefined) await wait; // the visitor's own work is behind (payload scans)
    }
    const waiting = ready?.();
    if (waiting !== undefined) await waiting;
  }
}
