/**
 * A real `tae serve` in a child process, for the crash and load campaigns: started on a data
 * directory (the built CLI, as users run it), its URL read from its first line (the tests'
 * `listening`), stopped with SIGTERM or killed with SIGKILL; its stderr can be shown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { listening } from '../test/helpers/serve-child.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const STDERR_SHOWN = 64 * 1024;

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** What the server wrote on stderr (the last 64 KiB of it). */
  stderr(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful close), and wait; the exit code, or null when it had to be killed. */
  stop(graceMs?: number): Promise<number | null>;
}

export async function startServe(dataDir: string, args: readonly string[] = []): Promise<ServeProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--data', dataDir, '--port', '0', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = once(child, 'exit');
  let started: Awaited<ReturnType<typeof listening>>;
  try {
    started = await listening(child);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url: started.url.trim(),
    pid: child.pid!,
    stderr: () => started.stderr().slice(-STDERR_SHOWN),
    kill: async () => {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
    stop: async (graceMs = 20_000) => {
      if (gone()) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      return child.signalCode === 'SIGKILL' ? null : child.exitCode;
    },
  };
}
