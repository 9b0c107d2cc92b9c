/**
 * How decoding scales with threads (`--only scale`) and what this machine allows any Node
 * program (`--only ceilings`), with the limits each measurement sets on the other.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BIG, BIG_RECORDS, CLI, emit, evtxexport, generated, report, results } from './decode-report.js';
import { median, outputBytes, type Timed, timeProcess } from './measure.js';

/**
 * Thread scaling where threads matter: a 1 GiB file re-sequenced from the 81 MB corpus file
 * (same records and templates), so each worker's start-up (loading, JIT) is amortised as it
 * is on real large logs. On the 81 MB file that start-up is most of a 1 s run.
 */
export async function scaleBench(runs: number): Promise<void> {
  const big = await generated('tae-bench-corpus-1GB.evtx', ['--from', BIG]);
  if (big === null) {
    emit({ bench: 'scale', error: 'could not generate the 1 GiB file' });
    return;
  }
  const size = statSync(big).size;
  const records = Math.round((BIG_RECORDS * size) / statSync(BIG).size);
  const run = (threads: number) =>
    median(runs, () =>
      timeProcess('node', [CLI, 'parse', '-q', '-t', String(threads), '-f', 'jsonl', big], {
        cpus: '0,1',
        discard: true,
        sampleCpuEveryMs: 100,
      }),
    );
  const label = `${(size / 2 ** 30).toFixed(2)} GiB re-sequenced from the 81 MB file, 2 cores`;
  const t0 = report('scale', `tae parse -f jsonl, main thread, ${label}`, await run(0), records, size);
  const one = await run(1);
  const t1 = report('scale', `tae parse -f jsonl, 1 worker, ${label}`, one, records, size);
  const two = await run(2);
  const t2 = report('scale', `tae parse -f jsonl, 2 workers, ${label}`, two, records, size);
  results.scale1GB_workers2VsWorker1 = Number((t1 / t2).toFixed(2));
  results.scale1GB_workers2VsMainThread = Number((t0 / t2).toFixed(2));
  scaleLimits(t1, one, two);
}

/**
 * What limits the pool's scaling, from the CPU of each kind of thread (Linux): with 2 workers
 * the process needs their CPU plus the other threads' (the main thread reading and writing,
 * V8's collectors and compilers, libuv's reads), so 2 cores run it in no less than half the
 * total; past 2 cores the workers divide their part, and the main thread, one of a kind, is the
 * floor. The workers' own CPU for the same records also grows when two run at once (cores that
 * share caches, or a host's, and each isolate compiling the decoder for itself):
 * `workersCpuGrowth` is that growth, and `bestFromWorkersCpu` the speed-up 2 workers could
 * reach with nothing else running.
 */
function scaleLimits(oneWorkerMs: number, one: Timed, two: Timed): void {
  if (one.threads === undefined || two.threads === undefined || two.cpuMs === null) return;
  const perThread = { '1': one.threads.byGroup(), '2': two.threads.byGroup() };
  const workers = perThread['2'].poolWorkers;
  results.scale1GB_threadCpuMs = perThread;
  results.scale1GB_bestOn2Cores = Number((oneWorkerMs / (two.cpuMs / 2)).toFixed(2));
  results.scale1GB_otherThanWorkersCpuMs = two.cpuMs - workers;
  results.scale1GB_mainThreadFloorMs = perThread['2'].mainThread;
  if (perThread['1'].poolWorkers > 0 && workers > 0) {
    results.scale1GB_workersCpuGrowth = Number((workers / perThread['1'].poolWorkers).toFixed(2));
    results.scale1GB_bestFromWorkersCpu = Number((oneWorkerMs / (workers / 2)).toFixed(2));
  }
}

/**
 * What this machine allows any Node program, measured in the same run as the targets they bound.
 * 15× evtxexport: a process that decodes nothing, only reads the 81 MB file and writes as many
 * bytes as `tae parse -f xml` does (and once more with one JS pass over every byte).
 * 2 workers ≥ 1.8× one: two independent main-thread decoders on the 2 cores against one alone.
 * They share nothing, so no pool can scale better than they do on this machine.
 */
export async function ceilingsBench(runs: number): Promise<void> {
  const size = statSync(BIG).size;
  const xmlBytes = await outputBytes('node', [CLI, 'parse', '-q', '-f', 'xml', BIG]);
  const floor = (touch: boolean) =>
    median(runs, () =>
      timeProcess(
        'node',
        [join(import.meta.dirname, 'floor.mjs'), BIG, String(xmlBytes), ...(touch ? ['touch'] : [])],
        {
          cpus: '0',
          discard: true,
        },
      ),
    );
  const bare = report(
    'ceilings',
    `no decoding: start, read the file, write ${xmlBytes} bytes, 1 core`,
    await floor(false),
    BIG_RECORDS,
    size,
  );
  const touched = report(
    'ceilings',
    'the same with one JS pass over every byte, 1 core',
    await floor(true),
    BIG_RECORDS,
    size,
  );
  const ee = await evtxexport('ceilings', runs);
  if (ee !== null) {
    results.noDecodingVsEvtxexport = Number((ee / bare).toFixed(2));
    results.onePassVsEvtxexport = Number((ee / touched).toFixed(2));
  }
  warmupBound();
  const big = await generated('tae-bench-corpus-1GB.evtx', ['--from', BIG]);
  if (big === null) return;
  const bigSize = statSync(big).size;
  const records = Math.round((BIG_RECORDS * bigSize) / size);
  const decoder = () =>
    timeProcess('node', [CLI, 'parse', '-q', '-t', '0', '-f', 'jsonl', big], { cpus: '0,1', discard: true });
  const alone = report(
    'ceilings',
    'one main-thread decoder alone, 1 GiB, 2 cores',
    await median(runs, decoder),
    records,
    bigSize,
  );
  const pair = await median(runs, async () => {
    const both = await Promise.all([decoder(), decoder()]);
    return { ...both[0]!, wallMs: Math.max(both[0]!.wallMs, both[1]!.wallMs) };
  });
  report(
    'ceilings',
    'two independent main-thread decoders at once (records of both), 1 GiB, 2 cores',
    pair,
    2 * records,
    2 * bigSize,
  );
  results.independentPairVsOne = Number(((2 * alone) / pair.wallMs).toFixed(2));
}

/**
 * Each worker pays its own start-up and JIT warm-up, however the work is split. With S the
 * start of a process, F its first (cold) pass over the 81 MB file and D a warm pass, one worker
 * takes S + F and two at best S + F − D/2: no pool makes 2 workers faster than that ratio there.
 */
function warmupBound(): void {
  const primer = spawnSync('taskset', ['-c', '0', process.execPath, '-e', '0']); // loads node's files into the cache
  const t0 = performance.now();
  spawnSync('taskset', ['-c', '0', process.execPath, '-e', '0']);
  const startMs = performance.now() - t0;
  const child = spawnSync(
    'taskset',
    ['-c', '0', process.execPath, join(import.meta.dirname, 'steady-state.mjs'), BIG, '0', '3000'],
    { encoding: 'utf8' },
  );
  if (primer.status !== 0 || child.status !== 0) return;
  const { firstPassMs, passMs } = JSON.parse(child.stdout.trim()) as { firstPassMs: number; passMs: number };
  const bound = (startMs + firstPassMs) / (startMs + firstPassMs - passMs / 2);
  emit({
    bench: 'ceilings',
    name: 'warm-up per thread, 81 MB file, 1 core',
    startMs: Math.round(startMs),
    firstPassMs,
    passMs,
  });
  results.workers2Bound81MB = Number(bound.toFixed(2));
}
