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

export async function startServe(dataDir: string): Promise<ServeChild> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--data', dataDir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  const [url] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line'),
    once(child, 'exit').then(([code]) => assert.fail(`tae serve exited ${code}: ${stderr}`)),
  ])) as [string];
  return {
    child,
    port: Number(new URL(url).port),
    url,
    stderr: () => stderr,
    alive: () => assert.equal(child.exitCode, null, `tae serve died: ${stderr}`),
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
