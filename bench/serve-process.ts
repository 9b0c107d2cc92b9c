/**
 * A real `tae serve` in a child process, for the crash and load campaigns: started on a data
 * directory, its URL read from its first line, stopped with SIGTERM or killed with SIGKILL. Its
 * stderr is kept (the last 64 KiB) so a campaign can show what the server said.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CLI = join(import.meta.dirname, '..', 'dist', 'src', 'cli', 'main.js');
const STDERR_KEPT = 64 * 1024;

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** What the server wrote on stderr (its last 64 KiB). */
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
  let err = '';
  child.stderr!.on('data', (b: Buffer) => {
    err = (err + b.toString('utf8')).slice(-STDERR_KEPT);
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([l]) => String(l)),
    exited.then(() => null),
    new Promise<null>((r) => setTimeout(() => r(null), 60_000).unref()),
  ]);
  if (first === null || !first.startsWith('http://')) {
    child.kill('SIGKILL');
    throw new Error(`tae serve did not start: ${first ?? 'no URL line'}; stderr: ${err.slice(-2000)}`);
  }
  lines.on('line', () => {}); // the retention lines that follow
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url: first.trim(),
    pid: child.pid!,
    stderr: () => err,
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
