/**
 * `tae serve` as a real process: it prints its URL on one line, serves the interface over
 * HTTP, stops cleanly on SIGTERM and SIGINT (exit 0, engine closed, data kept for the next
 * start), and refuses bad options with the usage exit code.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { Engine } from '../src/service/index.js';
import { smallLog } from './helpers/small-log.js';

const MAIN = join(import.meta.dirname, '..', 'src', 'cli', 'main.ts');
const KEY = 'cli serve key: correct horse battery';

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

function tae(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function start(args: string[]): Promise<Served> {
  const child = tae(['serve', '--port', '0', ...args]);
  let err = '';
  child.stderr!.on('data', (c) => {
    err += c;
  });
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => assert.fail(`tae serve exited ${code}: ${err}`)),
  ])) as [string];
  return { child, url, stderr: () => err };
}

async function stop(s: Served, signal: NodeJS.Signals): Promise<number | null> {
  const exited = once(s.child, 'exit');
  s.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}

async function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = tae(args);
  let stderr = '';
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

test('tae serve prints its URL, serves an authenticated upload and parse job, and stops on SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-serve-'));
  try {
    // Tokens have no endpoint; issue one on the data directory before the server owns it.
    const engine = await Engine.open({ dataDir: dir });
    const { token } = await engine.createToken();
    await engine.close();
    const auth = { 'X-Service-Api-Token': token, 'X-Service-Api-Enc-Key': KEY };

    const served = await start(['--data', dir]);
    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const form = new FormData();
    form.append('files', new Blob([smallLog()]), 'cli.evtx');
    const up = await fetch(`${served.url}/analysis/upload`, { method: 'POST', headers: auth, body: form });
    assert.equal(up.status, 200);
    const fileId = ((await up.json()) as { file_ids: [string, string][] }).file_ids[0]![0];
    const created = await fetch(`${served.url}/analysis/winevtx/parse`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ file_ids: [fileId], run_sigma_rules: false }),
    });
    const jobId = ((await created.json()) as { id: string }).id;
    let status = '';
    for (let i = 0; i < 400 && status !== 'Completed'; i++) {
      const res = await fetch(`${served.url}/analysis/job/${jobId}`, { headers: auth });
      status = ((await res.json()) as { status: string }).status;
      if (status !== 'Completed') await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(status, 'Completed');
    assert.equal(await stop(served, 'SIGTERM'), 0, served.stderr());
    assert.equal(served.stderr(), '');

    // The engine was closed cleanly: a new server on the same directory has the file and job.
    const again = await start(['--data', dir]);
    const files = await fetch(`${again.url}/analysis/file/list`, { headers: auth });
    assert.deepEqual(
      ((await files.json()) as { files: string[][] }).files.map((f) => f.slice(0, 2)),
      [[fileId, 'cli.evtx']],
    );
    const job = await fetch(`${again.url}/analysis/job/${jobId}`, { headers: auth });
    assert.equal(((await job.json()) as { status: string }).status, 'Completed');
    assert.equal(await stop(again, 'SIGINT'), 0, again.stderr());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tae serve --brand and --memory: the brand word names the headers', async () => {
  const served = await start(['--memory', '--brand', 'Acme']);
  try {
    const form = new FormData();
    form.append('files', new Blob(['x']), 'x.bin');
    const res = await fetch(`${served.url}/upload`, {
      method: 'POST',
      headers: { 'X-Acme-Api-Token': 'not-a-token' },
      body: form,
    });
    assert.deepEqual([res.status, await res.text()], [400, 'X-Acme-Api-Token must be a valid UUID v4']);
  } finally {
    assert.equal(await stop(served, 'SIGTERM'), 0);
  }
});

test('tae serve refuses bad options and a busy port with the usage exit code 2', async () => {
  const busy = createServer();
  busy.listen(0, '127.0.0.1');
  await once(busy, 'listening');
  const port = String((busy.address() as { port: number }).port);
  try {
    const cases: [string[], RegExp][] = [
      [['serve', '--memory', '--port', '70000'], /port from 0 to 65535/],
      [['serve', '--memory', '--data', '/tmp/x'], /--memory and --data exclude each other/],
      [['serve', '--memory', '--brand', 'A B'], /options\.brand must be/],
      [['serve', '--memory', '--port', port], /cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    for (const [i, [args, message]] of cases.entries()) {
      assert.equal(results[i]!.code, 2, args.join(' '));
      assert.match(results[i]!.stderr, message, args.join(' '));
    }
  } finally {
    busy.close();
  }
});
