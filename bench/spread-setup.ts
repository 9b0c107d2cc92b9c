/**
 * What bench/spread.ts runs on: the job bench's four 238 MiB generated files (the same cache
 * under .bench-out/, made by fixtures/generate-large.ts when missing), and per build and rule
 * set one data directory with a token, the files uploaded and the rules added, made on first
 * use and removed when the bench exits.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const KEY = 'bench key 0123456789abcdef';
const OUT = join(import.meta.dirname, '..', '.bench-out');

/** The 1 GB set of bench/job.ts: `.bench-out/job-238M-seed{1..4}.evtx`. */
export function largeFiles(root: string): string[] {
  mkdirSync(OUT, { recursive: true });
  return [1, 2, 3, 4].map((seed) => {
    const path = join(OUT, `job-238M-seed${seed}.evtx`);
    if (existsSync(path)) return path;
    const script = join(root, 'fixtures', 'generate-large.ts');
    const args = ['--import', 'tsx', script, '--size', '238M', '--seed', String(seed), path];
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`generate-large.ts --seed ${seed} failed`);
    return path;
  });
}

function cliJson<T>(cli: string, args: readonly string[]): T {
  const r = spawnSync(process.execPath, [cli, ...args, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`tae ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const made = new Map<string, { auth: string[]; ids: string[] }>();
const dirs: string[] = [];
process.on('exit', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * A private job's arguments on `files` through `cli`: the data directory, token and key, and
 * the uploaded files' ids; with `rules`, that rule directory added (`tae rules add`).
 */
export async function jobData(cli: string, rules: string | undefined, files: readonly string[]) {
  const key = `${cli}\0${rules ?? ''}`;
  const known = made.get(key);
  if (known !== undefined) return known;
  const data = mkdtempSync(join(OUT, 'spread-data-'));
  dirs.push(data);
  const [t] = cliJson<{ token: string }[]>(cli, ['tokens', 'create', '--data', data]);
  const auth = ['--data', data, '--token', t!.token, '--key', KEY];
  if (rules !== undefined) {
    const r = spawnSync(process.execPath, [cli, 'rules', 'add', rules, '--data', data], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tae rules add exited ${r.status}: ${r.stderr}`);
  }
  const uploaded = cliJson<{ file_id: string }[]>(cli, ['files', 'upload', ...auth, ...files]);
  const job = { auth, ids: uploaded.map((u) => u.file_id) };
  made.set(key, job);
  return job;
}
