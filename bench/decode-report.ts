/**
 * What the decode benches of `npm run bench` share (bench/run.ts, bench/scaling.ts): the CLI
 * they time, the 81 MB corpus file, the summary they fill, one JSON line per measurement, the
 * evtxexport reference and the generated 1 GiB files.
 */
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVTX_DIR } from '../test/helpers/corpus.js';
import { commandExists, median, type Timed, timeProcess } from './measure.js';

export const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
export const BIG = join(EVTX_DIR, 'bench', 'corpus-chunks-81MB.evtx');
export const BIG_RECORDS = 39269;
/** The last line's ratios, filled by every bench of the run. */
export const results: Record<string, number | string | null | object> = {};

export function emit(o: Record<string, unknown>): void {
  console.log(JSON.stringify(o));
}

export function report(
  bench: string,
  name: string,
  t: Timed & { runsMs?: number[] },
  records: number,
  bytes: number,
): number {
  const s = t.wallMs / 1000;
  emit({
    bench,
    name,
    records,
    wallMs: Math.round(t.wallMs),
    runsMs: t.runsMs,
    recordsPerSec: Math.round(records / s),
    mbPerSec: Number((bytes / 1e6 / s).toFixed(1)),
    peakRssKb: t.peakRssKb,
    exitCode: t.exitCode,
  });
  return t.wallMs;
}

/** libevtx's `evtxexport -f xml` on the 81 MB file, 1 core: its median wall ms, reported; null when not installed. */
export async function evtxexport(bench: string, runs: number): Promise<number | null> {
  if (!(await commandExists('evtxexport'))) return null;
  const t = await median(runs, () =>
    timeProcess('evtxexport', ['-f', 'xml', BIG], { cpus: '0', discard: true }),
  );
  return report(bench, 'libevtx evtxexport -f xml, 1 core', t, BIG_RECORDS, statSync(BIG).size);
}

/** A 1 GiB file in the temporary folder made by fixtures/generate-large.ts (kept for later runs). */
export async function generated(name: string, args: readonly string[]): Promise<string | null> {
  const path = join(tmpdir(), name);
  if (existsSync(path)) return path;
  const script = join(import.meta.dirname, '..', 'fixtures', 'generate-large.ts');
  const gen = await timeProcess('node', ['--import', 'tsx', script, '--size', '1G', ...args, path], {});
  return gen.exitCode === 0 ? path : null;
}
