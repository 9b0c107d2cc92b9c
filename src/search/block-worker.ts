/** A worker thread that builds trigram blocks into their own files (blocks.ts) until none is left. */
import { parentPort, workerData } from 'node:worker_threads';
import { type BlockPlan, buildClaimedBlocks } from './blocks.js';

export type BlockWorkerReply =
  | { readonly kind: 'done' }
  | { readonly kind: 'failed'; readonly message: string };

const plan = workerData as BlockPlan;
const reply = (m: BlockWorkerReply) => parentPort!.postMessage(m);
try {
  buildClaimedBlocks(plan);
  reply({ kind: 'done' });
} catch (e) {
  reply({ kind: 'failed', message: (e as Error).message });
} finally {
  plan.key?.fill(0); // this thread's copy: SQLite keeps what it needs
}
