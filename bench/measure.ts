/** Timing whole processes (optionally pinned to CPUs) and reading their peak memory. */
import { execFileSync, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { ThreadSampler } from './threads.js';

export interface Timed {
  readonly wallMs: number;
  readonly exitCode: number | null;
  readonly peakRssKb: number | null;
  /** The process's CPU time (user + system, its waited-for children included), from /usr/bin/time. */
  readonly cpuMs: number | null;
  readonly stdout: string;
  /** What the process wrote on stderr (without /usr/bin/time's line). */
  readonly stderr: string;
  /** With `sampleCpuEveryMs` (Linux): [ms since start, the process's CPU ms so far], in order. */
  readonly cpuSamples?: readonly (readonly [number, number])[];
  /** With `sampleCpuEveryMs` (Linux): each thread's CPU at the same samples. */
  readonly threads?: ThreadSampler;
}

export interface RunOptions {
  /** CPU list for taskset, e.g. '0' or '0,1'. */
  readonly cpus?: string;
  readonly timeoutMs?: number;
  /** Discard stdout (like `> /dev/null`) instead of capturing it. */
  readonly discard?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Read the measured process's CPU time this often (from /proc; threads that ended included). */
  readonly sampleCpuEveryMs?: number;
}

let ticksPerSecond: number | undefined;
const clockTicks = (): number =>
  (ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

/** CPU ms of `pid` (every thread, ended ones included) from /proc, or null when unreadable. */
function processCpuMs(pid: number): number | null {
  try {
    const ticksPerSecond = clockTicks();
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** The first child of `pid` (the command /usr/bin/time runs), or null. */
function childOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/**
 * Cores used between two times (ms since start), from CPU samples: the CPU time gained over
 * the wall time between the samples nearest those times. Null without two distinct samples.
 */
export function coresBetween(
  samples: readonly (readonly [number, number])[],
  from: number,
  to: number,
): number | null {
  const at = (t: number) =>
    samples.reduce((best, s) => (Math.abs(s[0] - t) < Math.abs(best[0] - t) ? s : best));
  if (samples.length < 2) return null;
  const [a, b] = [at(from), at(to)];
  return b[0] > a[0] ? Number(((b[1] - a[1]) / (b[0] - a[0])).toFixed(2)) : null;
}

/** Runs `cmd args…` under `/usr/bin/time -f %M` (peak RSS) and taskset, timing the whole process. */
export function timeProcess(cmd: string, args: readonly string[], o: RunOptions = {}): Promise<Timed> {
  const full = [...(o.cpus ? ['taskset', '-c', o.cpus] : []), cmd, ...args];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'TAE_PEAK_RSS_KB=%M TAE_CPU_S=%U+%S', ...full], {
      stdio: ['ignore', o.discard ? openSync('/dev/null', 'w') : 'pipe', 'pipe'],
      env: { ...process.env, ...o.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const timer = o.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), o.timeoutMs) : undefined;
    const cpuSamples: [number, number][] = [];
    let measured: number | null = null;
    let threads: ThreadSampler | undefined;
    const sampler =
      o.sampleCpuEveryMs === undefined || child.pid === undefined
        ? undefined
        : setInterval(() => {
            measured ??= childOf(child.pid!);
            if (measured === null) return;
            const at = performance.now() - started;
            const cpu = processCpuMs(measured);
            if (cpu !== null) cpuSamples.push([at, cpu]);
            threads ??= new ThreadSampler(measured, clockTicks());
            threads.sample(at);
          }, o.sampleCpuEveryMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const m = /TAE_PEAK_RSS_KB=(\d+)/.exec(stderr);
      const cpu = /TAE_CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
      resolve({
        wallMs: performance.now() - started,
        exitCode: code,
        peakRssKb: m ? Number(m[1]) : null,
        cpuMs: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 1000) : null,
        stdout,
        stderr: stderr.replace(/^.*TAE_PEAK_RSS_KB=.*$\n?/m, ''),
        ...(sampler === undefined ? {} : { cpuSamples }),
        ...(threads === undefined ? {} : { threads }),
      });
    });
  });
}

export async function median(runs: number, f: () => Promise<Timed>): Promise<Timed & { runsMs: number[] }> {
  const all: Timed[] = [];
  for (let i = 0; i < runs; i++) all.push(await f());
  const sorted = [...all].sort((a, b) => a.wallMs - b.wallMs);
  return { ...sorted[Math.floor(sorted.length / 2)]!, runsMs: all.map((t) => Math.round(t.wallMs)) };
}

export function commandExists(cmd: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = spawn('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    c.on('close', (code) => resolve(code === 0));
    c.on('error', () => resolve(false));
  });
}

/** How many bytes `cmd args…` writes to stdout (counted as they stream, not kept). */
export function outputBytes(cmd: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let n = 0;
    child.stdout.on('data', (d: Buffer) => {
      n += d.length;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(n) : reject(new Error(`${cmd} exited with ${code}`))));
  });
}
