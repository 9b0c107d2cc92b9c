/**
 * CPU per thread of a measured process (Linux, from /proc/<pid>/task), grouped by what the
 * thread does: the index threads the engine starts carry names (`tae-…`), the pools' piscina
 * workers Node's default `WorkerThread`, V8's helpers `V8Worker`, libuv's `libuv-worker`. Every
 * thread is read at each sample, so the CPU of a phase is the difference between two samples;
 * a thread that ends keeps its last reading (up to one interval of it is missed).
 */
import { readdirSync, readFileSync } from 'node:fs';

export type ThreadGroup =
  | 'mainThread'
  | 'poolWorkers'
  | 'indexWriter'
  | 'indexCompletion'
  | 'v8Helpers'
  | 'libuv'
  | 'other';

export function groupOf(name: string): ThreadGroup {
  if (name === 'MainThread' || name === 'node') return 'mainThread';
  if (name === 'WorkerThread') return 'poolWorkers';
  if (name === 'tae-index-stage') return 'indexWriter';
  if (name === 'tae-index-fill') return 'indexCompletion';
  if (name.startsWith('V8')) return 'v8Helpers';
  if (name.startsWith('libuv')) return 'libuv';
  return 'other';
}

/** Every thread's name and CPU readings: [ms since start, CPU ms so far]. */
export class ThreadSampler {
  private readonly threads = new Map<string, { name: string; readings: [number, number][] }>();

  constructor(
    private readonly pid: number,
    private readonly ticksPerSecond: number,
  ) {}

  sample(atMs: number): void {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${this.pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / this.ticksPerSecond;
        const t = this.threads.get(tid);
        if (t === undefined) this.threads.set(tid, { name, readings: [[atMs, cpuMs]] });
        else {
          t.name = name;
          t.readings.push([atMs, cpuMs]);
        }
      } catch {
        // the thread ended between the listing and the read
      }
    }
  }

  /** Each thread's name, group and CPU ms over the whole run, busiest first. */
  perThread(): { name: string; group: ThreadGroup; cpuMs: number }[] {
    return [...this.threads.values()]
      .map((t) => ({ name: t.name, group: groupOf(t.name), cpuMs: Math.round(cpuAt(t.readings, Infinity)) }))
      .sort((a, b) => b.cpuMs - a.cpuMs);
  }

  /** CPU ms per group between two times (ms since start); the whole run without them. */
  byGroup(fromMs = Number.NEGATIVE_INFINITY, toMs = Number.POSITIVE_INFINITY): Record<ThreadGroup, number> {
    const out: Record<ThreadGroup, number> = {
      mainThread: 0,
      poolWorkers: 0,
      indexWriter: 0,
      indexCompletion: 0,
      v8Helpers: 0,
      libuv: 0,
      other: 0,
    };
    for (const t of this.threads.values())
      out[groupOf(t.name)] += Math.round(cpuAt(t.readings, toMs) - cpuAt(t.readings, fromMs));
    return out;
  }
}

/** A thread's CPU at a time: its last reading then (0 before it was first seen). */
function cpuAt(readings: readonly (readonly [number, number])[], atMs: number): number {
  let cpu = 0;
  for (const [t, c] of readings) {
    if (t > atMs) break;
    cpu = c;
  }
  return cpu;
}

/** Groups whose threads a pool replicates with the cores: the workers, V8's and libuv's helpers. */
const REPLICATED: ReadonlySet<ThreadGroup> = new Set(['poolWorkers', 'v8Helpers', 'libuv']);

/**
 * How far a run would spread over more cores: its whole CPU against the CPU of its busiest
 * thread that no pool replicates (the main thread, the index writer, the completion thread,
 * any other single thread). However many cores, the run cannot take less wall time than that
 * thread's CPU, so the ratio bounds its speed-up over one core.
 */
export function spreadBound(threads: ThreadSampler, processCpuMs: number) {
  const busiest = threads.perThread().find((t) => !REPLICATED.has(t.group));
  if (busiest === undefined || busiest.cpuMs <= 0) return null;
  return {
    busiestSingleThread: busiest.name,
    busiestSingleThreadCpuMs: busiest.cpuMs,
    bound: Number((processCpuMs / busiest.cpuMs).toFixed(2)),
  };
}
