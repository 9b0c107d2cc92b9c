/**
 * Child processes that grow a young generation and report its size, for the tests of the V8 heap
 * settings (jobs/memory.ts, cli/young-generation.ts): the size an isolate really gets is only
 * seen by allocating.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

/** Module source defining `young()`, this isolate's new space in bytes. */
export const YOUNG =
  "import { getHeapSpaceStatistics } from 'node:v8';\n" +
  "const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;\n";

/**
 * Statements that allocate `count` small objects keeping up to `window` alive (they survive a
 * scavenge or two, so V8 grows the young generation), and leave its largest size in `max`.
 */
export const growYoung = (count: number, window: number): string => `
let live = [];
let max = 0;
for (let i = 0; i < ${count}; i++) {
  live.push({ i, s: 'x' + i });
  if (live.length > ${window}) live = [];
  if (i % 10000 === 0) max = Math.max(max, young());
}
live = null;
`;

/** Runs `source` as a module (sources importable as .ts) with node `flags`; its output, parsed. */
export function runModule<T>(flags: readonly string[], source: string): T {
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...flags, '--input-type=module', '-e', source], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}
