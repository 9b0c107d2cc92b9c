/**
 * Acceptance 1, load: 50 concurrent HTTP clients each upload a small generated EVTX file
 * (half anonymous, half with their own token and key), create a parse job and poll it to
 * Completed, all with no error answer. Wall time and upload throughput are reported as
 * diagnostics.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serve } from '../src/http/index.js';
import {
  type Auth,
  Engine,
  type JobCreated,
  type JobListResponse,
  type JobStatusResponse,
  type UploadResponse,
} from '../src/service/index.js';
import { smallLog } from './helpers/small-log.js';

const CLIENTS = 50;

function headersOf(auth: Auth): Record<string, string> {
  const h: Record<string, string> = {};
  if (auth.token) h['X-Service-Api-Token'] = auth.token;
  if (auth.encKey) h['X-Service-Api-Enc-Key'] = auth.encKey;
  return h;
}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, 200, `${what}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** One client: upload, create a parse job, poll until it is done; returns the final job. */
async function client(base: string, i: number, auth: Auth, log: Uint8Array): Promise<JobStatusResponse> {
  const form = new FormData();
  form.append('files', new Blob([log]), `client-${i}.evtx`);
  const up = await json<UploadResponse>(
    await fetch(`${base}/upload`, { method: 'POST', headers: headersOf(auth), body: form }),
    'upload',
  );
  const created = await json<JobCreated>(
    await fetch(`${base}/analysis/winevtx/parse`, {
      method: 'POST',
      headers: { ...headersOf(auth), 'Content-Type': 'application/json' },
      body: JSON.stringify({ file_ids: [up.file_ids[0]![0]], run_sigma_rules: i % 4 === 0 }),
    }),
    'parse',
  );
  for (;;) {
    const job = await json<JobStatusResponse>(
      await fetch(`${base}/analysis/job/${created.id}`, { headers: headersOf(auth) }),
      'status',
    );
    if (job.status === 'Completed' || job.status === 'Failed') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('50 concurrent clients upload, create parse jobs and poll them to Completed with no error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-http-load-'));
  const engine = await Engine.open({ dataDir: dir });
  const server = await serve({ engine, port: 0 });
  try {
    const log = smallLog();
    const auths: Auth[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      auths.push(
        i % 2 === 0 ? {} : { token: (await engine.createToken()).token, encKey: `load client key ${i}` },
      );
    }
    const start = performance.now();
    const jobs = await Promise.all(auths.map((auth, i) => client(server.url, i, auth, log)));
    const seconds = (performance.now() - start) / 1000;
    t.diagnostic(`${CLIENTS} clients: upload + parse job + polling in ${seconds.toFixed(2)} s wall time`);
    const counts = new Set<string>();
    for (const job of jobs) {
      assert.equal(job.status, 'Completed');
      assert.ok(job.insights !== undefined && job.insights.length > 0);
      counts.add(String(job.insights.length));
    }
    // The same log gives the same number of insights, whoever asked (Sigma or not aside).
    assert.ok(counts.size <= 2, `insight counts ${[...counts]}`);
    const listed = await json<JobListResponse>(
      await fetch(`${server.url}/analysis/job/list`, { headers: headersOf(auths[1]!) }),
      'list',
    );
    assert.equal(listed.jobs.length, 1, 'each token sees only its own job');
  } finally {
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a 64 MiB upload over HTTP is stored byte for byte, public and encrypted (throughput reported)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-http-speed-'));
  const engine = await Engine.open({ dataDir: dir });
  const server = await serve({ engine, port: 0 });
  try {
    const { token } = await engine.createToken();
    const bytes = new Uint8Array(64 * 1024 * 1024);
    for (let at = 0; at < bytes.length; at += 65536) bytes[at] = at / 65536;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const rule = `import "hash"\nrule intact { condition: filesize == ${bytes.length} and hash.sha256(0, filesize) == "${sha256}" }`;
    for (const auth of [{}, { token, encKey: 'speed test key, long enough' }] as Auth[]) {
      const form = new FormData();
      form.append('files', new Blob([bytes]), 'big.bin');
      const start = performance.now();
      const up = await json<UploadResponse>(
        await fetch(`${server.url}/upload`, { method: 'POST', headers: headersOf(auth), body: form }),
        'upload',
      );
      const seconds = (performance.now() - start) / 1000;
      const kind = auth.token ? 'private (encrypted)' : 'public';
      t.diagnostic(`upload ${kind}: 64 MiB in ${seconds.toFixed(2)} s = ${(64 / seconds).toFixed(0)} MiB/s`);
      // The stored bytes are the sent bytes: a YARA job over HTTP checks their SHA-256.
      const job = await json<JobCreated>(
        await fetch(`${server.url}/analysis/yara/file`, {
          method: 'POST',
          headers: { ...headersOf(auth), 'Content-Type': 'application/json' },
          body: JSON.stringify({
            file_ids: [up.file_ids[0]![0]],
            operation: 'run_rule',
            rule: Buffer.from(rule).toString('base64'),
          }),
        }),
        'yara file',
      );
      let done: JobStatusResponse;
      do {
        await new Promise((r) => setTimeout(r, 50));
        done = await json<JobStatusResponse>(
          await fetch(`${server.url}/analysis/job/${job.id}`, { headers: headersOf(auth) }),
          'status',
        );
      } while (done.status !== 'Completed' && done.status !== 'Failed');
      assert.deepEqual(
        (done.insights![0] as unknown as { Table: { data: string[][] } }).Table.data
          .slice(1)
          .map((r) => r.slice(0, 2)),
        [['big.bin', 'intact']],
        kind,
      );
    }
  } finally {
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
