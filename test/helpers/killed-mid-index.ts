/**
 * What the leftover tests share: a log big enough that its index is still being staged a
 * moment after it starts (fixtures/generate-large.ts, 32 MiB: about a second of staging), and
 * a way to kill a process with SIGKILL once its temporary index is being written.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** Writes the big log to `path` (a few seconds) unless it is there. */
export function bigLog(path: string): string {
  if (existsSync(path)) return path;
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'fixtures', 'generate-large.ts'), '--size', '32M', path],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`generate-large failed: ${r.stderr}`);
  return path;
}

/** The top-level entries of `temp` under which an index stage file exists now. */
export function staging(temp: string): string[] {
  const has = (dir: string, depth: number): boolean =>
    readdirSync(dir, { withFileTypes: true }).some(
      (e) =>
        e.name.endsWith('.sqlite.stage') ||
        (e.isDirectory() && depth < 3 && has(join(dir, e.name), depth + 1)),
    );
  return readdirSync(temp, { withFileTypes: true })
    .filter((e) => e.isDirectory() && has(join(temp, e.name), 0))
    .map((e) => e.name);
}

export async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `child` stages an index in `temp`, kills it with SIGKILL; the entry it leaves. */
export async function killWhileStaging(child: ChildProcess, temp: string, before: string[]): Promise<string> {
  const exited = new Promise((r) => child.once('exit', r));
  try {
    return await until('an index being staged', () => staging(temp).find((n) => !before.includes(n)));
  } finally {
    child.kill('SIGKILL'); // also when the wait failed: no child outlives its test
    await exited;
  }
}
