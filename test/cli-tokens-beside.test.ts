/**
 * Issue 13, defect 7: tokens can be issued while `tae serve` holds the data directory (the
 * running server accepts them at once), `tae serve --memory --issue-token LEVEL` prints one,
 * and every other command on a held directory exits 6 with a message naming the directory,
 * the holder's pid and what to do.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { CLI, ensureBuilt, runTae } from './helpers/cli-binary.js';
import { call } from './helpers/http-client.js';
import { smallLog } from './helpers/small-log.js';

const KEY = 'beside the server, 16+ chars';
const dir = mkdtempSync(join(tmpdir(), 'tae-tokens-beside-'));
const children: ChildProcess[] = [];

interface Served {
  child: ChildProcess;
  lines: AsyncIterator<string>;
  url: string;
}

async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TAE_HOME: join(dir, '.tae-home'), TAE_TOKEN: '', TAE_KEY: '' },
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (c) => {
    err += c;
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await Promise.race([
    lines.next(),
    once(child, 'exit').then(([code]) => assert.fail(`tae serve exited ${code}: ${err}`)),
  ]);
  return { child, lines, url: String(first.value) };
}

async function stop(s: Served): Promise<number | null> {
  const exited = once(s.child, 'exit');
  s.child.kill('SIGTERM');
  return ((await exited) as [number | null])[0];
}

before(ensureBuilt);
after(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test('tae tokens create beside a running tae serve --data: the server accepts the token at once', async () => {
  const data = join(dir, 'held');
  const served = await startServe(['--data', data]);
  try {
    const created = runTae(dir, ['tokens', 'create', '--data', data, '--level', 'premium', '--json']);
    assert.equal(created.status, 0, created.stderr);
    const { token, level } = (JSON.parse(created.stdout) as { token: string; level: string }[])[0]!;
    assert.equal(level, 'premium');
    const form = new FormData();
    form.append('files', new Blob([smallLog()]), 'a.evtx');
    const up = await call(served.url, 'POST', '/upload', { auth: { token, encKey: KEY }, body: form });
    assert.equal(up.status, 200, up.text);
    const list = await call(served.url, 'GET', '/analysis/file/list', { auth: { token } });
    assert.equal(list.status, 200, list.text);
    assert.equal(JSON.parse(list.text).files.length, 1);
  } finally {
    assert.equal(await stop(served), 0);
  }
});

test('a command that needs the directory while tae serve holds it exits 6, naming the directory, the pid and what to do', async () => {
  const data = join(dir, 'locked');
  const served = await startServe(['--data', data]);
  try {
    const token = randomUUID(); // the lock is checked before any token
    for (const args of [
      ['files', 'list', '--data', data, '--token', token],
      ['jobs', 'list', '--data', data, '--token', token],
      ['serve', '--port', '0', '--data', data],
    ]) {
      const r = runTae(dir, args);
      assert.equal(r.status, 6, `${args[0]}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        `tae: the data directory ${data} is locked: process ${served.child.pid} has an engine open on it; ` +
          'stop that process (e.g. its tae serve) or use another --data directory; tae tokens create works beside it\n',
      );
    }
  } finally {
    assert.equal(await stop(served), 0);
  }
  // Released on exit: the same command now works.
  assert.equal(runTae(dir, ['tokens', 'create', '--data', data]).status, 0);
});

test('tae serve --memory --issue-token LEVEL prints a token after the URL, and the server accepts it', async () => {
  const served = await startServe(['--memory', '--issue-token', 'standard']);
  try {
    const second = await served.lines.next();
    const m = /^token ([0-9a-f-]{36}) standard$/.exec(String(second.value));
    assert.ok(m, `second line: ${second.value}`);
    const jobs = await call(served.url, 'GET', '/analysis/job/list', { auth: { token: m[1]! } });
    assert.equal(jobs.status, 200, jobs.text);
    assert.equal(jobs.text, '{"jobs":[]}');
  } finally {
    assert.equal(await stop(served), 0);
  }
});
