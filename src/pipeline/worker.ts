/**
 * The pool's worker file: it loads the stages (worker-stages.ts) by the first task's dynamic
 * import, so that every module the worker runs is loaded once, through one loader. Loaded from
 * here statically they came through `require` (piscina's), and a module imported later again
 * came twice under a loader that transforms sources (tsx): coverage could not be reported.
 */
import type { SpanResult, SpanTask } from '../parse/index.js';

type Stages = typeof import('./worker-stages.js');
let stages: Stages['default'] | undefined;

export default function pipelineWorker(task: SpanTask): SpanResult | Promise<SpanResult> {
  if (stages !== undefined) return stages(task);
  return import('./worker-stages.js').then((m) => {
    stages = m.default;
    return stages(task);
  });
}
