/**
 * The HTTP twin, endpoint by endpoint over real HTTP (fetch against `serve()` on a free
 * loopback port): every endpoint's success shape, and the upload at both paths with the
 * repeated `files` field. The transport's own answers are in http-transport.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningServer, serve } from '../src/http/index.js';
import {
  type Auth,
  Engine,
  type FileListResponse,
  type JobCreated,
  type JobListResponse,
  type JobStatusResponse,
  type MessageResponse,
  type UploadResponse,
} from '../src/service/index.js';
import { type Answer, call } from './helpers/http-client.js';
import { smallLog } from './helpers/small-log.js';

const KEY = 'http endpoints key: correct horse';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UTC = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/;
const b64 = (s: string) => Buffer.from(s).toString('base64');

function ok<T>(a: Answer): T {
  assert.equal(a.status, 200, a.text);
  assert.equal(a.type, 'application/json');
  return JSON.parse(a.text) as T;
}

/** An insight's one key and its value. */
type InsightOf<K extends string, V> = { readonly [key in K]: V };
type TableInsight = InsightOf<'Table', { title: string; data: string[][] }>;

function form(...files: [string, Uint8Array][]): FormData {
  const f = new FormData();
  for (const [name, bytes] of files) f.append('files', new Blob([bytes]), name);
  return f;
}

async function completed(base: string, id: string, auth: Auth): Promise<JobStatusResponse> {
  const until = Date.now() + 30_000;
  for (;;) {
    const job = ok<JobStatusResponse>(await call(base, 'GET', `/analysis/job/${id}`, { auth }));
    if (job.status === 'Completed' || job.status === 'Failed') return job;
    assert.ok(Date.now() < until, `job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('every endpoint answers its success shape over HTTP', () => {
  let engine: Engine;
  let server: RunningServer;
  let base: string;
  let owner: Auth;
  let yaraName: string;
  let sigmaName: string;
  before(async () => {
    engine = await Engine.open({ memory: true });
    server = await serve({ engine, port: 0 });
    base = server.url;
    owner = { token: (await engine.createToken()).token, encKey: KEY };
    const library = await engine.rules();
    yaraName = library.list({ kind: 'yara' })[0]!.name;
    sigmaName = library.list({ kind: 'sigma' })[0]!.name;
  });
  after(async () => {
    await server.close();
    await engine.close();
  });

  test('serve listens on loopback and prints a plain http URL', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('upload at /upload and /analysis/upload takes the repeated files field, public and private', async () => {
    const log = smallLog();
    const pub = ok<UploadResponse>(
      await call(base, 'POST', '/upload', { body: form(['a.evtx', log], ['b.bin', log]) }),
    );
    assert.equal(pub.message, '2 files uploaded');
    assert.deepEqual(
      pub.file_ids.map((p) => p[1]),
      ['a.evtx', 'b.bin'],
    );
    for (const [id] of pub.file_ids) assert.match(id, UUID);
    const priv = ok<UploadResponse>(
      await call(base, 'POST', '/analysis/upload', { auth: owner, body: form(['ünïcode name.evtx', log]) }),
    );
    assert.deepEqual(priv.file_ids[0]![1], 'ünïcode name.evtx');
    const files = ok<FileListResponse>(await call(base, 'GET', '/analysis/file/list', { auth: owner })).files;
    assert.deepEqual(files.length, 1);
    assert.deepEqual(files[0]!.slice(0, 2), priv.file_ids[0]);
    assert.match(files[0]![2], UTC);
    assert.deepEqual(files[0]!.slice(3), ['private', 'encrypted']);
  });

  test('parse job: created, polled to Completed with insights, listed, searched, deleted', async () => {
    const fileId = ok<UploadResponse>(
      await call(base, 'POST', '/upload', { auth: owner, body: form(['s.evtx', smallLog()]) }),
    ).file_ids[0]![0];
    const created = ok<JobCreated>(
      await call(base, 'POST', '/analysis/winevtx/parse', {
        auth: owner,
        json: { file_ids: [fileId], run_sigma_rules: true },
      }),
    );
    assert.match(created.id, UUID);
    assert.equal(created.category, 'winevtx');
    assert.equal(typeof created.job_name, 'string');
    assert.equal(typeof created.message, 'string');
    const job = await completed(base, created.id, owner);
    assert.equal(job.status, 'Completed');
    assert.equal(job.id, created.id);
    // Seven Overview insights (four, then the logon, event-id and per-computer summaries), the
    // key event timeline and its sources table, and one of each other result type but the empty
    // ones (no process started: no processes table beside the graph).
    assert.equal(job.insights?.length, 18);
    for (const insight of job.insights) assert.equal(Object.keys(insight).length, 1);

    const rows = ok<JobListResponse>(await call(base, 'GET', '/analysis/job/list', { auth: owner })).jobs;
    const row = rows.find((r) => r[0] === created.id)!;
    assert.deepEqual(
      [row.length, row[1], row[2], row[4], row[5]],
      [6, created.job_name, 'Completed', 'private', 'winevtx'],
    );
    assert.match(row[3], UTC);

    type EventTable = InsightOf<'IndexTable', { title: string; data: [string[], Record<string, string>][] }>;
    const events = ok<{ insights: EventTable[] }>(
      await call(base, 'POST', '/analysis/winevtx/search', {
        auth: owner,
        json: { job_id: created.id, search: 'evilsvc', browse_events: true },
      }),
    );
    const table = events.insights[0]!.IndexTable;
    assert.equal(table.title, 'Event Table');
    assert.deepEqual(
      table.data.map((row) => row[0][0]),
      ['7045'],
    );
    const rebuilt = ok<JobStatusResponse>(
      await call(base, 'POST', '/analysis/winevtx/search', {
        auth: owner,
        json: { job_id: created.id, search: '', browse_events: false },
      }),
    );
    assert.deepEqual([rebuilt.id, rebuilt.status], [created.id, 'Completed']);
    assert.equal(rebuilt.insights?.length, 18);

    const deleted = ok<MessageResponse>(
      await call(base, 'POST', '/analysis/job/delete', { auth: owner, json: { ids: [created.id] } }),
    );
    assert.equal(typeof deleted.message, 'string');
    const gone = await call(base, 'GET', `/analysis/job/${created.id}`, { auth: owner });
    assert.deepEqual([gone.status, gone.text], [404, `Job ${created.id} not found`]);
  });

  test('YARA and Sigma file jobs are created with their categories and complete', async () => {
    const fileId = ok<UploadResponse>(
      await call(base, 'POST', '/upload', { body: form(['y.evtx', smallLog()]) }),
    ).file_ids[0]![0];
    const yara = ok<JobCreated>(
      await call(base, 'POST', '/analysis/yara/file', {
        json: {
          file_ids: [fileId],
          operation: 'run_rule',
          rule: b64('rule has_elf { strings: $a = "ElfFile" condition: $a }'),
        },
      }),
    );
    assert.equal(yara.category, 'Yara');
    const yaraJob = await completed(base, yara.id, {});
    assert.equal(yaraJob.status, 'Completed');
    const table = (yaraJob.insights![0] as unknown as TableInsight).Table;
    assert.equal(table.title, 'Yara Analysis Results');
    assert.deepEqual(table.data[1]!.slice(0, 2), ['y.evtx', 'has_elf']);

    const sigma = ok<JobCreated>(
      await call(base, 'POST', '/analysis/sigma/file', {
        json: { file_ids: [fileId], operation: 'run_community_rules' },
      }),
    );
    assert.equal(sigma.category, 'sigma');
    assert.equal((await completed(base, sigma.id, {})).status, 'Completed');
  });

  test('a running job can be cancelled through our cancel endpoint', async () => {
    const fileId = ok<UploadResponse>(
      await call(base, 'POST', '/upload', { auth: owner, body: form(['c.evtx', smallLog()]) }),
    ).file_ids[0]![0];
    const job = ok<JobCreated>(
      await call(base, 'POST', '/analysis/winevtx/parse', {
        auth: owner,
        json: { file_ids: [fileId], run_sigma_rules: false },
      }),
    );
    const cancel = await call(base, 'POST', '/analysis/job/cancel', {
      auth: owner,
      json: { job_id: job.id },
    });
    // The job may already have finished on a fast machine; either answer is the engine's.
    if (cancel.status === 200) assert.equal(typeof JSON.parse(cancel.text).message, 'string');
    else assert.equal(cancel.type, 'text/plain; charset=utf-8');
  });

  test('data endpoints answer their results in-band', async () => {
    const yara = ok<{ results: TableInsight[] }>(
      await call(base, 'POST', '/analysis/yara/data', {
        json: {
          test_data: b64('hello marker'),
          operation: 'run_rule',
          rule: b64('rule m { strings: $a = "marker" condition: $a }'),
        },
      }),
    );
    assert.deepEqual(yara.results[0]!.Table.data, [
      ['File', 'Rule'],
      ['test_data', 'm'],
    ]);
    const sigma = ok<{ results: { type: string } | { type: string }[] }>(
      await call(base, 'POST', '/analysis/sigma/data', {
        json: {
          test_data: b64('{"EventID": 1}'),
          operation: 'run_rule',
          rule: b64(
            'title: t\nlogsource: {product: windows}\ndetection:\n  s: {EventID: 1}\n  condition: s\n',
          ),
        },
      }),
    );
    const tables = [sigma.results].flat().filter((r) => r.type === 'Table');
    assert.equal(tables.length, 1);
  });

  test('rule retrieval answers each requested name as lines', async () => {
    for (const [path, name] of [
      ['/analysis/yara/rules', yaraName],
      ['/analysis/sigma/rules', sigmaName],
    ] as const) {
      const body = ok<{ results: Record<string, unknown[]> }>(
        await call(base, 'POST', path, { json: { rule_names: [name] } }),
      );
      assert.deepEqual(Object.keys(body.results), [name]);
      assert.ok(body.results[name]!.every((l) => typeof l === 'string'));
      assert.ok(body.results[name]!.length > 3);
    }
  });

  test('lookup answers columns and rows', async () => {
    const body = ok<{ columns: string[]; rows: string[][] }>(
      await call(base, 'POST', '/analysis/lookup', { json: { search: '4624', module: 'event_id', show: 2 } }),
    );
    assert.equal(body.columns[0], 'Event ID');
    assert.equal(body.rows.length, 2);
    assert.ok(body.rows.every((r) => r[0]!.includes('4624')));
  });

  test('file delete removes own files; the list no longer shows them', async () => {
    const fileId = ok<UploadResponse>(
      await call(base, 'POST', '/upload', { auth: owner, body: form(['d.bin', new Uint8Array(9)]) }),
    ).file_ids[0]![0];
    ok(await call(base, 'POST', '/analysis/file/delete', { auth: owner, json: { ids: [fileId] } }));
    const files = ok<FileListResponse>(await call(base, 'GET', '/analysis/file/list', { auth: owner })).files;
    assert.ok(!files.some((f) => f[0] === fileId));
  });
});
