/**
 * A real `tae serve` in a child process (the CLI from source), on a data directory, for tests
 * that need the server and its clients apart: the client's and the server's event loops race
 * as they do in use, and the server's memory can be read from /proc.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const MAIN = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

export interface ServeChild {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Fails the test if the server has exited. */
  alive(): void;
  stop(): Promise<void>;
}

/** A spawned `tae serve` gives no URL within this: it is stuck, not slow. */
const START_MS = 60_000;

/**
 * The URL a spawned `tae serve` prints on its first line, and what it writes on stderr (kept
 * from the start); fails when the server exits, or prints nothing for a minute, first.
 */
export async function listening(child: ChildProcess): Promise<{ url: string; stderr: () => string }> {
  let stderr = '';
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  const lines = createInterface({ input: child.stdout! });
  let timer: NodeJS.Timeout | undefined;
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code, signal]) =>
      assert.fail(`tae serve exited ${code ?? signal}: ${stderr}`),
    ),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`tae serve printed no URL: ${stderr}`)), START_MS);
    }),
  ]).finally(() => clearTimeout(timer))) as [string];
  lines.on('line', () => {}); // the lines after the URL (retention) are read and dropped
  return { url, stderr: () => stderr };
}

export async function startServe(dataDir: string): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const { url, stderr } = await listening(child);
  return {
    child,
    port: Number(new URL(url).port),
    url,
    stderr,
    alive: () => assert.equal(child.exitCode, null, `tae serve died: ${stderr()}`),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A field of /proc/PID/status in KiB: `VmRSS` (now) or `VmHWM` (the peak so far). */
export const memoryKiB = (pid: number, field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
