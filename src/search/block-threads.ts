/**
 * The threads of a parallel block build (blocks.ts): worker threads (block-worker.ts) start
 * taking blocks at once; the completing thread joins them when it has copied the events, then
 * moves the built blocks into the index.
 */
import { Worker } from 'node:worker_threads';
import { fromThreadFailure, threadFailure } from '../errors/index.js';
import type { BlockWorkerReply } from './block-worker.js';
import { type BlockPlan, blockBuilt, buildClaimedBlocks, closeGate } from './blocks.js';

const blockWorkerUrl = new URL(
  `./block-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/** Worker threads that build blocks until none is left; each promise settles when its thread has ended. */
export function startBuilders(plan: BlockPlan, count: number): Promise<void>[] {
  return Array.from({ length: count }, () => {
    const worker = new Worker(blockWorkerUrl, {
      name: 'tae-index-fill', // the thread's name, for per-thread figures (bench/threads.ts)
      workerData: { ...plan, key: plan.key === null ? null : Uint8Array.from(plan.key) },
      // SQLite's memory is its own (bounded page caches); the thread's JavaScript is small.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    return new Promise<void>((resolve, reject) => {
      let reply: BlockWorkerReply | undefined;
      worker.on('message', (m: BlockWorkerReply) => {
        reply = m;
      });
      worker.on('error', (e) => {
        reply ??= { kind: 'failed', failure: threadFailure(e) };
      });
      worker.on('exit', (code) => {
        if (reply?.kind === 'done') resolve();
        else
          reject(
            fromThreadFailure(
              reply?.kind === 'failed' ? reply.failure : threadFailure(`exited (${code})`),
              'block builder failed',
            ),
          );
      });
    });
  });
}

/**
 * This thread builds blocks too until none is left, then hands each block to `merge`, in block
 * order, as soon as it is built: the blocks done while a helper builds the last one are merged
 * meanwhile, instead of after it with a core idle. The first failure stops all.
 */
export async function buildAndMerge(
  plan: BlockPlan,
  helpers: readonly Promise<void>[],
  merge: (k: number) => void,
): Promise<void> {
  const outcome = Promise.allSettled(helpers);
  // Settles with the first helper's failure; a helper that fails never marks its block built.
  const helperFailed = new Promise<{ readonly failed: unknown }>((resolve) => {
    for (const h of helpers) h.catch((e: unknown) => resolve({ failed: e }));
  });
  let failure: unknown;
  try {
    buildClaimedBlocks(plan);
    for (let k = 0; k < plan.blocks; k++) {
      const waited = await Promise.race([blockBuilt(plan, k), helperFailed]);
      if (waited !== undefined) throw waited.failed;
      merge(k);
    }
  } catch (e) {
    failure = e;
    closeGate(plan.gate);
  }
  for (const r of await outcome) {
    if (r.status === 'rejected') {
      failure ??= r.reason;
      closeGate(plan.gate);
    }
  }
  if (failure !== undefined) throw failure;
}
