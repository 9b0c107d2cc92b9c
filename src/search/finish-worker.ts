/** Worker thread (piscina): completes one index build, see complete.ts. */
import { type ThreadFailure, threadFailure } from '../errors/index.js';
import { completeIndex, type FinishResult, type FinishTask } from './complete.js';

/** A thrown error would reach the job's thread as a clone without its code (a full disk). */
export type FinishOutcome = FinishResult | { readonly kind: 'failed'; readonly failure: ThreadFailure };

export default async function finish(task: FinishTask): Promise<FinishOutcome> {
  try {
    return await completeIndex(task);
  } catch (e) {
    return { kind: 'failed', failure: threadFailure(e) };
  } finally {
    task.key?.fill(0); // this thread's copy of the key
  }
}
