/** Worker thread (piscina): completes one index build, see complete.ts. */
import { completeIndex, type FinishResult, type FinishTask } from './complete.js';

export default async function finish(task: FinishTask): Promise<FinishResult> {
  try {
    return await completeIndex(task);
  } finally {
    task.key?.fill(0); // this thread's copy of the key
  }
}
