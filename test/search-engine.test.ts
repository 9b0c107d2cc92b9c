/**
 * Acceptance 3, through the Engine: a parse job writes its event index while it runs; the
 * search endpoint pages through it and rebuilds the job's body for a window; the index of a
 * public job is a file that survives a restart; a private job's index is sealed (no plaintext
 * of it anywhere under the data directory) and answers only its owner's key; deleting a job
 * deletes its index.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { fileServerEvents, intrusionStory, noisyStory } from '../fixtures/stories/index.js';
import { openSqlite } from '../native/sqlite.js';
import { isTaeError } from '../src/errors/index.js';
import type { IndexTableRow, Insight } from '../src/insights/index.js';
import type { EventTableResponse, RebuiltJobResponse } from '../src/search/index.js';
import { type Auth, Engine } from '../src/service/index.js';
import { settle } from './helpers/engine-test.js';
import { filesContaining, markerNeedles } from './helpers/marker-scan.js';

const MARKER = `Marker-${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'tae-search-engine-'));
let e: Engine;
let owner: Auth;
let other: Auth;
let publicJob: string;
let privateJob: string;

/** A token without a key uploads nothing; its jobs over public files are public, and its own. */
async function parse(engine: Engine, files: { name: string; bytes: Uint8Array }[], auth: Auth = {}) {
  const uploader = auth.encKey === undefined ? {} : auth;
  const up = await engine.upload({ files: files.map((f) => ({ name: f.name, data: f.bytes })) }, uploader);
  const ids = up.file_ids.map(([id]) => id);
  const job = await engine.createParseJob({ file_ids: ids, run_sigma_rules: true }, auth);
  const done = await settle(engine, job.id, auth);
  assert.equal(done.status, 'Completed');
  return job.id;
}

const browse = async (engine: Engine, body: Record<string, unknown>, auth: Auth = {}) =>
  (await engine.search({ search: '', browse_events: true, ...body }, auth)) as EventTableResponse;
const rowsOf = (r: EventTableResponse): IndexTableRow[] => r.insights.flatMap((i) => i.IndexTable.data);

/** Every matching event (the story is small: all fit in 10 pages of 100). */
async function everything(engine: Engine, body: Record<string, unknown>, auth: Auth = {}) {
  const rows: IndexTableRow[] = [];
  for (let page = 1; page <= 10; page++) {
    const got = rowsOf(await browse(engine, { ...body, page, show: 100 }, auth));
    rows.push(...got);
    if (got.length < 100) break;
  }
  return rows;
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    assert.ok(isTaeError(err), String(err));
    return err.status;
  }
}

before(async () => {
  e = await Engine.open({ dataDir: dir });
  owner = { token: (await e.createToken()).token, encKey: 'search owner key 0123456789' };
  other = { token: (await e.createToken()).token, encKey: 'search other key 9876543210' };
  publicJob = await parse(e, intrusionStory());
  const secret = writeEvtx(fileServerEvents().map((ev) => ({ ...ev, computer: MARKER })));
  privateJob = await parse(e, [{ name: 'secret.evtx', bytes: secret }], owner);
});
after(async () => {
  await e.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a public parse job', () => {
  test('its events are searched by text, Sigma rule title and event data, a page at a time', async () => {
    const table = await browse(e, { job_id: publicJob, search: 'MIMIKATZ', show: 5 });
    assert.equal(table.insights.length, 1);
    assert.equal(table.insights[0]!.IndexTable.title, 'Event Table');
    const hits = await everything(e, { job_id: publicJob, search: 'mimikatz' });
    assert.ok(hits.length >= 2);
    for (const [cells, data] of hits)
      assert.match([...cells, ...Object.values(data)].join('\n'), /mimikatz/i);

    const job = await e.getJob({ job_id: publicJob });
    const sigma = job.insights!.find((i) => 'Table' in i && i.Table.title === 'Overview: Sigma Matches');
    assert.ok(sigma && 'Table' in sigma);
    const [header, ...rules] = sigma.Table.data;
    const [title, count] = [header!.indexOf('Rule'), header!.indexOf('Count')];
    for (const rule of rules.slice(0, 5)) {
      const matched = await everything(e, {
        job_id: publicJob,
        filter: [{ field: 'sigma_matches', operator: 'equals', value: rule[title]!.toUpperCase() }],
      });
      assert.equal(matched.length, Number(rule[count]), `events matching ${rule[title]}`);
    }

    const logons = await everything(e, {
      job_id: publicJob,
      filter: [
        { field: 'event_id', operator: 'equals', value: '4625' },
        { field: 'details.TargetUserName', operator: 'not_equals', value: 'nobody' },
      ],
    });
    assert.equal(logons.length, 64);
    assert.ok(logons.every(([cells]) => cells[0] === '4625'));
  });

  test("browse_events false over every time returns the job's own body; a window narrows it", async () => {
    const job = await e.getJob({ job_id: publicJob });
    const rebuilt = (await e.search({
      job_id: publicJob,
      search: '',
      browse_events: false,
    })) as RebuiltJobResponse;
    assert.deepEqual(rebuilt, job);

    const all = await everything(e, { job_id: publicJob });
    const times = all.map(([c]) => Date.parse(`${c[2].replace(' ', 'T')}Z`));
    const [start, end] = [times[50]!, times[120]!];
    const inWindow = times.filter((t) => t >= start && t <= end + 999).length;
    const windowed = (await e.search({
      job_id: publicJob,
      search: 'ignored by the rebuild',
      browse_events: false,
      start_time: start,
      end_time: end + 999,
    })) as RebuiltJobResponse;
    const overview = (insights: Insight[]) =>
      insights.find((i) => 'Metadata' in i && i.Metadata.title === 'Overview') as {
        Metadata: { data: Record<string, string> };
      };
    const records = Number(overview(windowed.insights).Metadata.data.records);
    assert.equal(records, inWindow);
    assert.ok(records < Number(overview(job.insights!).Metadata.data.records));
  });

  test('its index is a file under the data directory that survives a restart', async () => {
    assert.ok(existsSync(join(dir, 'indexes', `${publicJob}.sqlite`)));
    const before = await everything(e, { job_id: publicJob, search: 'powershell' });
    await e.close();
    e = await Engine.open({ dataDir: dir });
    assert.deepEqual(await everything(e, { job_id: publicJob, search: 'powershell' }), before);
  });
});

describe('a private parse job', () => {
  test("answers its owner's key only", async () => {
    const body = { job_id: privateJob, search: MARKER.toLowerCase() };
    assert.equal(await status(browse(e, body, { token: owner.token })), 403);
    assert.equal(await status(browse(e, body, { ...owner, encKey: other.encKey })), 403);
    assert.equal(await status(browse(e, body, other)), 404);
    assert.equal(await status(browse(e, body)), 404);
    const rows = await everything(e, body, owner);
    assert.equal(rows.length, fileServerEvents().length);
    assert.ok(rows.every(([cells]) => cells[4] === MARKER));
  });

  test('its index is an encrypted owner-only file: no plaintext of it is anywhere under the data directory', async () => {
    const file = join(dir, 'indexes', `${privateJob}.sqlite`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'indexes')).mode & 0o777, 0o700);
    assert.throws(() => openSqlite(file, { readonly: true }).prepare('SELECT 1 FROM sqlite_schema').get());
    assert.deepEqual(filesContaining([dir], markerNeedles(MARKER, MARKER.toLowerCase())), []);
    const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT kind, sealed FROM job_indexes WHERE job_id = ?').get(privateJob);
      assert.deepEqual(row, { kind: 'file', sealed: 1 });
    } finally {
      db.close();
    }
  });
});

test('deleting jobs deletes their indexes: the file, the rows, and search answers 404', async () => {
  const file = join(dir, 'indexes', `${publicJob}.sqlite`);
  assert.ok(existsSync(file));
  const privateFile = join(dir, 'indexes', `${privateJob}.sqlite`);
  assert.ok(existsSync(privateFile));
  await e.deleteJobs({ ids: [privateJob] }, owner);
  assert.ok(!existsSync(privateFile));
  const { token } = await e.createToken();
  const mine = await parse(e, noisyStory(), { token });
  assert.ok(existsSync(join(dir, 'indexes', `${mine}.sqlite`)));
  await e.deleteJobs({ ids: [mine] }, { token });
  assert.ok(!existsSync(join(dir, 'indexes', `${mine}.sqlite`)));
  assert.equal(await status(browse(e, { job_id: mine }, { token })), 404);
  assert.equal(await status(browse(e, { job_id: privateJob }, owner)), 404);
  const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    assert.equal(count(`SELECT count(*) AS n FROM job_indexes WHERE job_id = '${privateJob}'`), 0);
    assert.equal(count(`SELECT count(*) AS n FROM job_index_chunks WHERE job_id = '${privateJob}'`), 0);
  } finally {
    db.close();
  }
});

test('opening an engine removes unfinished builds and index files no job holds, and keeps the rest', async () => {
  await e.close();
  const indexes = join(dir, 'indexes');
  const orphans = [
    `${randomUUID()}.sqlite`,
    `${publicJob}.${randomUUID()}.build`,
    `${publicJob}.${randomUUID()}.build.stage`,
  ];
  for (const name of orphans) writeFileSync(join(indexes, name), 'debris');
  e = await Engine.open({ dataDir: dir });
  assert.equal(e.recovery.indexFilesRemoved, orphans.length);
  assert.deepEqual(readdirSync(indexes), [`${publicJob}.sqlite`]);
  assert.equal(rowsOf(await browse(e, { job_id: publicJob, search: 'mimikatz' })).length, 3);
});

test('an engine in memory indexes and searches too', async () => {
  const m = await Engine.open({ memory: true });
  try {
    const job = await parse(m, noisyStory());
    const rows = await everything(m, { job_id: job, search: 'exe', start_time: 0 });
    assert.ok(rows.length > 100);
    const rebuilt = await m.search({ job_id: job, search: '', browse_events: false });
    assert.deepEqual(rebuilt, await m.getJob({ job_id: job }));
  } finally {
    await m.close();
  }
});
