/**
 * Data-endpoint worker: one Sigma data request, run whole (test data parsed, rule loaded and
 * compiled, events evaluated) by `runSigma`. The community rules arrive as text and are loaded
 * once per version, so a worker compiles them on its first community request only. Request
 * errors come back as data (a TaeError loses its class across threads); anything else throws
 * and becomes the endpoint's 500.
 */
import { setPriority } from 'node:os';
import { isTaeError } from '../errors/index.js';
import { loadSigmaSources, type SigmaSourceText } from '../rules/index.js';
import {
  type CompiledSigma,
  compileRuleSet,
  type PlaceholderValues,
  runSigmaSync,
  type SigmaDataRequest,
} from '../sigma/index.js';
import type { CommunitySigmaTexts, SigmaTask, SigmaTaskResult } from './data-pool.js';

/** Nice 10 for this thread (Linux sets priorities per thread): the event loop thread goes first. */
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: the worker runs at normal priority.
}

let community: { readonly version: string; readonly rules: CompiledSigma } | undefined;

function communityRules(texts: CommunitySigmaTexts): CompiledSigma {
  if (community?.version !== texts.version) {
    community = undefined; // the old set is garbage before the new one is built
    const bytes = Buffer.from(texts.shared.buffer, texts.shared.byteOffset, texts.shared.byteLength);
    const { sources, placeholders } = JSON.parse(bytes.toString('utf8')) as {
      sources: SigmaSourceText[];
      placeholders: PlaceholderValues;
    };
    const loaded = loadSigmaSources(sources, placeholders);
    const ruleSet = compileRuleSet({ rules: loaded.rules, filters: loaded.filters });
    community = { version: texts.version, rules: { loaded, ruleSet } };
  }
  return community.rules;
}

export default function runSigmaTask(task: SigmaTask): SigmaTaskResult {
  const texts = task.community;
  try {
    const response = runSigmaSync(
      task.request as SigmaDataRequest,
      texts ? { community: () => communityRules(texts) } : {},
    );
    return { kind: 'done', response };
  } catch (e) {
    if (!isTaeError(e)) throw e;
    const { code, message, status, bodyFormat, context } = e;
    return { kind: 'refused', code, message, status, bodyFormat, context };
  }
}
