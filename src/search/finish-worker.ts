/** Worker thread (piscina): completes one index build, see complete.ts. */
import { completeIndex, type FinishResult, type FinishTask } from './complete.js';

export default function finish(task: FinishTask): FinishResult {
  return completeIndex(task);
}
