/**
 * The young generation of the CLI's analysing commands. It is sized when V8 makes an isolate, so
 * only a new process can bound the main thread's: main.ts re-executes itself with `YOUNG_LIMIT`.
 * V8 grows an unbounded one to 64 MiB per semi-space on a thread that allocates as fast as a
 * parse job's: a 100 MB job peaked at 600 MiB RSS with that and at 480 MiB with 8 MiB, in the
 * same time (bench/job.ts). 16 MiB halves the job thread's scavenges against 8: the 1 GB private
 * job (builtin rules) took 31.3, 31.0 and 33.4 s against 33.1, 33.5 and 34.6 s (alternated), 2–5 s
 * less CPU, and peaked at 433–435 MiB against 410–420 (24 MiB: 490–502). With the SigmaHQ rules in
 * every thread that job peaks higher, and issue 46 bounds it at 512 MiB: at 16 MiB it peaked at
 * 570–577 MiB, at 8 MiB at 536–545 (the pipeline workers' young generations at 16 MiB in both).
 */
import { setFlagsFromString } from 'node:v8';

export const SEMI_SPACE_FLAG = '--max-semi-space-size';
export const YOUNG_LIMIT = `${SEMI_SPACE_FLAG}=8`;

/** Whether node was started with a semi-space size (by the re-execution or by the user). */
export const hasYoungLimit = (execArgv: readonly string[]): boolean =>
  execArgv.some((a) => a.startsWith(SEMI_SPACE_FLAG));

/**
 * V8's semi-space flag also overrides the young generation each worker thread asks for
 * (`resourceLimits.maxYoungGenerationSizeMb`): with it, the decode workers grew theirs to the
 * main thread's size. Once the main isolate exists its size is fixed, so the flag goes back to
 * V8's default (0: none) and each worker made afterwards gets the size it asks for.
 */
export function releaseWorkerYoungGeneration(): void {
  setFlagsFromString(`${SEMI_SPACE_FLAG}=0`);
}
