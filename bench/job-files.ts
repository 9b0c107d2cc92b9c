/**
 * The generated job inputs every bench shares: fixtures/generate-large.ts files made once and
 * kept under .bench-out/ (the 1 GB job is four 238 MiB files, seeds 1 to 4).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const BENCH_OUT = join(ROOT, '.bench-out');

/** Each job size's files: generate-large.ts arguments (size, seed). */
export const JOB_SIZES: Record<string, readonly [string, number][]> = {
  '100M': [['100M', 1]],
  '500M': [
    ['238M', 1],
    ['238M', 2],
  ],
  '1G': [
    ['238M', 1],
    ['238M', 2],
    ['238M', 3],
    ['238M', 4],
  ],
};

/** The generated file of this size and seed, made when missing. */
export function generatedJobFile(size: string, seed: number): string {
  const path = join(BENCH_OUT, `job-${size}-seed${seed}.evtx`);
  if (existsSync(path)) return path;
  mkdirSync(BENCH_OUT, { recursive: true });
  const script = join(ROOT, 'fixtures', 'generate-large.ts');
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', script, '--size', size, '--seed', String(seed), path],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`generate-large.ts --size ${size} --seed ${seed} failed`);
  return path;
}
