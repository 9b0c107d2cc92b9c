/**
 * A parse job with given Sigma rules, its files decoded inline or on a pipeline pool (every file,
 * whatever its size), for tests that compare what the two paths report.
 */
import assert from 'node:assert/strict';
import { createWinevtxRunner } from '../../src/jobs/index.js';
import type { DecodePool } from '../../src/parse/index.js';
import { pipelinePool } from '../../src/pipeline/index.js';
import { Engine, type JobStatusResponse } from '../../src/service/index.js';
import {
  type CompiledSigma,
  compileRuleSet,
  encodeParsed,
  loadRules,
  parseRuleText,
  portableSigma,
} from '../../src/sigma/index.js';
import { settle } from './engine-test.js';

/** `text`'s rules, compiled; the workers' portable form made from `workerText` (the same by default). */
export function compiledRules(text: string, workerText = text): CompiledSigma {
  const loaded = loadRules(text, 'rules.yml');
  const ruleSet = compileRuleSet({ rules: loaded.rules, filters: loaded.filters });
  const worker = loadRules(workerText, 'rules.yml');
  const portable = portableSigma(
    {
      sources: ['rules.yml'],
      parsed: encodeParsed([parseRuleText(workerText, 'rules.yml')]),
      placeholdersFrom: 1,
    },
    {},
    worker,
    worker,
  );
  return { loaded, ruleSet, portable };
}

/** The pools the jobs made; the caller closes them (`after`). */
export const jobPools: DecodePool[] = [];

/** The completed job's insights. */
export async function pooledJobInsights(
  sigma: CompiledSigma,
  pooled: boolean,
  files: readonly { readonly name: string; readonly bytes: Uint8Array }[],
): Promise<unknown[]> {
  const pool = pipelinePool(2);
  jobPools.push(pool);
  const engine = await Engine.open({
    memory: true,
    runners: {
      winevtx: createWinevtxRunner({
        sigma: () => sigma,
        ...(pooled ? { pool: () => pool, inlineBelowBytes: 0 } : {}),
      }),
    },
  });
  try {
    const up = await engine.upload({ files: files.map((f) => ({ name: f.name, data: f.bytes })) });
    const job = await engine.createParseJob({
      file_ids: up.file_ids.map((f) => f[0]),
      run_sigma_rules: true,
    });
    const done: JobStatusResponse = await settle(engine, job.id);
    assert.equal(done.status, 'Completed');
    return done.insights ?? [];
  } finally {
    await engine.close();
  }
}
