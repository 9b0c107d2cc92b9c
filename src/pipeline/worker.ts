/**
 * The engine's pool worker: the decode worker, then, for tasks that carry Sigma rules, the
 * rules matched against each decoded event where the event was made. Only the positions of the
 * matched rules go back with the records (most records match none: `null`). The rules are
 * loaded and compiled once per version in each worker. A failure here never loses records:
 * the chunk goes back unmatched and the main thread matches it.
 */
import { decodeWorker, type SpanResult, type SpanTask } from '../parse/index.js';
import { type LoadedPortable, loadPortable, sigmaEventFromEvtx } from '../sigma/index.js';
import type { PipelineStage, StagedChunk } from './stage.js';

let rules: { readonly version: string; readonly loaded: LoadedPortable | null } | undefined;

function rulesOf(stage: PipelineStage): LoadedPortable | null {
  const portable = stage.sigma!;
  if (rules?.version !== portable.version) {
    rules = undefined; // the old set is garbage before the new one is built
    let loaded: LoadedPortable | null = null;
    try {
      loaded = loadPortable(portable);
    } catch {
      loaded = null;
    }
    rules = { version: portable.version, loaded };
  }
  return rules.loaded;
}

function matchChunk(chunk: SpanResult['chunks'][number], loaded: LoadedPortable): StagedChunk {
  const sigma: (number[] | null)[] = [];
  for (const r of chunk.records) {
    let hit: number[] | null = null;
    if (r.event !== undefined)
      for (const m of loaded.ruleSet.match(sigmaEventFromEvtx(r.event))) {
        const at = loaded.position.get(m.rule);
        if (at === undefined) continue;
        if (hit === null) hit = [at];
        else hit.push(at);
      }
    sigma.push(hit);
  }
  return { ...chunk, sigma };
}

export default function pipelineWorker(task: SpanTask): SpanResult {
  const result = decodeWorker(task);
  const stage = task.stage as PipelineStage | undefined;
  if (stage?.sigma === undefined || task.batchText === true) return result;
  const loaded = rulesOf(stage);
  if (loaded === null) return result;
  return {
    ...result,
    chunks: result.chunks.map((c) => {
      try {
        return matchChunk(c, loaded);
      } catch {
        return c;
      }
    }),
  };
}
