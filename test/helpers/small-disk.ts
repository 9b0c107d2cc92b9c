/**
 * A small tmpfs that only the test's processes see, for full-disk tests. A holder process,
 * started with `unshare --mount` (as root; else `unshare --user --map-root-user --mount`),
 * mounts it on a fresh directory and then waits on its stdin: the mount lives as long as the
 * holder, which ends at `close()` or when the test process dies (its stdin pipe closes). tae
 * runs inside the mount namespace through `nsenter`, so the server and the CLI share the disk
 * and a server can be restarted on it; the test process reaches the same files through
 * `/proc/<holder>/root`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ensureBuilt } from './cli-binary.js';

const asRoot = process.getuid?.() === 0;
const UNSHARE = asRoot ? ['--mount'] : ['--user', '--map-root-user', '--mount'];
const NSENTER = asRoot ? ['--mount'] : ['--user', '--mount', '--preserve-credentials'];

/** Why a tmpfs cannot be mounted here (the reason to skip), or false when it can. */
export function smallDiskUnavailable(): string | false {
  const dir = mkdtempSync(join(tmpdir(), 'tae-disk-probe-'));
  try {
    const r = spawnSync('unshare', [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs "$0"', dir], {
      encoding: 'utf8',
    });
    if (r.error !== undefined) return `unshare cannot run: ${r.error.message}`;
    return r.status === 0 ? false : `cannot mount a tmpfs in a private mount namespace: ${r.stderr.trim()}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SmallDisk {
  /** The mount point, as tae (inside the namespace) names it. */
  readonly dir: string;
  /** A path on the disk as this process reaches it. */
  outside(...parts: string[]): string;
  /** `node <built tae> ARGS` inside the namespace (a clean per-user environment, as runTae). */
  tae(args: readonly string[], stdio?: 'pipe' | 'ignore'): ChildProcess;
  /** Runs `sh -c SCRIPT` inside the namespace, with `$TAE` the command that runs tae. */
  shell(script: string): Promise<Run>;
  run(args: readonly string[]): Promise<Run>;
  /** Fills the disk with a file `fill` until `leave` bytes are free (0: every byte); returns its size. */
  fill(leave?: number): number;
  /** Removes the filler. */
  unfill(): void;
  /** Bytes free now. */
  free(): number;
  close(): Promise<void>;
}

export async function smallDisk(sizeMiB: number): Promise<SmallDisk> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tae-disk-'));
  const holder = spawn(
    'unshare',
    [
      ...UNSHARE,
      'sh',
      '-c',
      `mount -t tmpfs -o size=${sizeMiB}m tmpfs "$0" && echo mounted && exec cat`,
      dir,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let err = '';
  holder.stderr!.on('data', (c) => {
    err += c;
  });
  const [first] = await Promise.race([
    once(holder.stdout!, 'data') as Promise<[Buffer]>,
    once(holder, 'exit').then(() => {
      throw new Error(`the tmpfs holder ended: ${err}`);
    }),
  ]);
  if (!String(first).startsWith('mounted')) throw new Error(`unexpected holder output: ${first}`);
  const root = `/proc/${holder.pid}/root`;
  const outside = (...parts: string[]) => join(root, dir, ...parts);
  const env = {
    ...process.env,
    TAE_HOME: join(dir, '.tae-home'),
    TAE_CACHE_DIR: join(tmpdir(), `tae-disk-cache-${process.pid}`),
    TAE_RULE_PACKS: '',
    TAE_TOKEN: '',
    TAE_KEY: '',
    TAE: `${process.execPath} ${CLI}`,
  };
  const inside = (command: readonly string[], stdio: 'pipe' | 'ignore') =>
    spawn('nsenter', ['--target', String(holder.pid), ...NSENTER, '--', ...command], {
      env,
      stdio: ['ignore', stdio, stdio],
    });
  const collect = async (child: ChildProcess): Promise<Run> => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => {
      stdout += c;
    });
    child.stderr!.on('data', (c) => {
      stderr += c;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  };
  const free = () => {
    const s = statfsSync(outside());
    return s.bavail * s.bsize;
  };
  return {
    dir,
    outside,
    tae: (args, stdio = 'pipe') => inside([process.execPath, CLI, ...args], stdio),
    shell: (script) => collect(inside(['sh', '-c', script], 'pipe')),
    run: (args) => collect(inside([process.execPath, CLI, ...args], 'pipe')),
    fill(leave = 0) {
      const fd = openSync(outside('fill'), 'a');
      const block = Buffer.alloc(64 * 1024, 0x46);
      let size = 0;
      try {
        for (let room = free() - leave; room > 0; room = free() - leave) {
          size += writeSync(fd, block, 0, Math.min(block.length, room));
        }
        if (leave === 0) for (;;) size += writeSync(fd, block, 0, 1); // the last bytes of a page
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
      return size;
    },
    unfill: () => rmSync(outside('fill'), { force: true }),
    free,
    async close() {
      holder.stdin!.end();
      if (holder.exitCode === null) await once(holder, 'exit');
      rmSync(dir, { recursive: true, force: true });
      rmSync(env.TAE_CACHE_DIR, { recursive: true, force: true });
    },
  };
}
