/**
 * The YARA file jobs (`yara_file_community`, `yara_file_custom`): the job's files scanned by
 * src/yara, which gives the spec's `Yara Analysis Results` table (and `Rule metadata` for a
 * custom rule). Private files are handed over as bytes, never written out.
 */
import { TaeError } from '../errors/index.js';
import type { Insight } from '../insights/index.js';
import { type CommunityRules, scanFiles, type YaraEngine, type YaraFileInput } from '../yara/index.js';
import type { JobRunner } from './types.js';

export interface YaraFileRunnerOptions {
  /** The community rules, compiled once (e.g. from a rule library's `yaraSources()`). */
  readonly community?: CommunityRules;
  readonly engine?: YaraEngine;
  readonly timeoutMs?: number;
}

export function createYaraFileRunner(
  options: YaraFileRunnerOptions = {},
): JobRunner<'yara_file_community' | 'yara_file_custom'> {
  return async (input, ctx) => {
    const files: YaraFileInput[] = [];
    for (const id of input.file_ids) {
      const f = await ctx.readFile(id); // without `stream`: a path or the bytes, never a reader
      const { source } = f;
      if (typeof source === 'string') files.push({ name: f.name, path: source });
      else if (source instanceof Uint8Array) files.push({ name: f.name, bytes: source });
      else throw new TaeError('INTERNAL', 'a YARA file job was given a reader');
    }
    const rules =
      input.type === 'yara_file_custom'
        ? ({ kind: 'custom', source: input.rule } as const)
        : ({ kind: 'community', rules: options.community ?? missingCommunity } as const);
    const scan = await scanFiles({
      files,
      rules,
      signal: ctx.signal,
      ...(options.engine ? { engine: options.engine } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    return scan.insights as readonly Insight[];
  };
}

const missingCommunity: CommunityRules = () => {
  throw new Error('no community YARA rules are configured');
};
