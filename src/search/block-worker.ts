/** A worker thread that builds trigram blocks into their own files (blocks.ts) until none is left. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ThreadFailure, threadFailure } from '../errors/index.js';
import { type BlockPlan, buildClaimedBlocks } from './blocks.js';

export type BlockWorkerReply =
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly failure: ThreadFailure };

const plan = workerData as BlockPlan;
const reply = (m: BlockWorkerReply) => parentPort!.postMessage(m);
try {
  buildClaimedBlocks(plan);
  reply({ kind: 'done' });
} catch (e) {
  reply({ kind: 'failed', failure: threadFailure(e) });
} finally {
  plan.key?.fill(0); // this thread's copy: SQLite keeps what it needs
}
