/**
 * Issue 14, acceptance 3: event indexes are files that SQLite encrypts page by page, and no
 * file SQLite (or the engine) writes holds plaintext, neither while a private job runs nor
 * after. A marker is planted in private events and a private file (UTF-8 and UTF-16LE forms
 * are looked for); the data directory and the temporary directory (TMPDIR and SQLITE_TMPDIR
 * point into this test's own) are scanned while the job runs and after its searches. Also:
 * an engine in memory keeps its indexes encrypted in an owner-only temporary directory that
 * goes at close, and no build statement sorts (sorts would sit in memory, as big as the job).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { attachSqlite, openSqlite } from '../native/sqlite.js';
import { replaySql } from '../src/search/rebuild.js';
import { buildGramBlock, copyStaged, indexSchema, STAGE_SCHEMA } from '../src/search/schema.js';
import { type Auth, Engine, type JobStatusResponse } from '../src/service/index.js';
import { allFiles, filesContaining, markerNeedles } from './helpers/marker-scan.js';
import { smallLogEvents } from './helpers/small-log.js';

// Before anything opens SQLite (no import above does), which reads these once per process.
const outerTmp = tmpdir();
const TMP = mkdtempSync(join(outerTmp, 'tae-index-tmp-'));
process.env.TMPDIR = TMP;
process.env.SQLITE_TMPDIR = TMP;

const MARKER = `Marker-${randomBytes(6).toString('hex')}`;
const NEEDLES = markerNeedles(MARKER, MARKER.toLowerCase());
const dataDir = mkdtempSync(join(outerTmp, 'tae-index-files-'));
const EVENTS = 6_000;

/** Many events carrying the marker (computer name and event data), so the build takes a while. */
function markedLog(): Uint8Array {
  const [base] = smallLogEvents() as [EventDescription];
  const events: EventDescription[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const t = new Date(Date.UTC(2026, 2, 1, 10) + i * 1000).toISOString().replace('Z', '0000Z');
    events.push({
      ...base,
      computer: MARKER,
      time: t,
      eventId: 4688,
      eventData: { CommandLine: `cmd.exe /c echo ${MARKER} ${i}`, TargetUserName: `user${i % 97}` },
    });
  }
  return writeEvtx(events);
}

async function settled(
  e: Engine,
  job_id: string,
  auth: Auth,
  during?: () => void,
): Promise<JobStatusResponse> {
  for (let i = 0; i < 6000; i++) {
    const s = await e.getJob({ job_id }, auth);
    if (s.status === 'Completed' || s.status === 'Failed') return s;
    during?.();
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`job ${job_id} did not finish`);
}

const rowsOf = (r: unknown) =>
  (r as { insights: { IndexTable: { data: [string[], Record<string, string>][] } }[] }).insights.flatMap(
    (i) => i.IndexTable.data,
  );

after(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(TMP, { recursive: true, force: true });
});

test('a private job, its upload and searches leave no plaintext in the data or temporary directory, during and after', async () => {
  const e = await Engine.open({ dataDir });
  try {
    const owner: Auth = { token: (await e.createToken()).token, encKey: 'index files passphrase 42' };
    const up = await e.upload(
      {
        files: [
          { name: 'case.evtx', data: markedLog() },
          { name: 'notes.txt', data: Buffer.from(`${MARKER}\n`.repeat(50_000)) },
        ],
      },
      owner,
    );
    const job = await e.createParseJob({ file_ids: [up.file_ids[0]![0]], run_sigma_rules: false }, owner);
    const leaks = new Set<string>();
    let scans = 0;
    let buildsSeen = 0;
    const scan = () => {
      scans++;
      if (allFiles(join(dataDir, 'indexes')).some((f) => f.endsWith('.build') || f.endsWith('.stage')))
        buildsSeen++;
      for (const f of filesContaining([dataDir, TMP], NEEDLES)) leaks.add(f);
    };
    const done = await settled(e, job.id, owner, scan);
    assert.equal(done.status, 'Completed');
    assert.ok(buildsSeen > 0, `the scans (${scans}) saw the index being built`);

    const search = (body: Record<string, unknown>) =>
      e.search({ job_id: job.id, search: '', browse_events: true, ...body }, owner);
    const hits = rowsOf(await search({ search: MARKER.toLowerCase(), show: 100 }));
    assert.equal(hits.length, 100);
    assert.ok(hits.every(([cells]) => cells[4] === MARKER));
    const filtered = rowsOf(
      await search({
        filter: [{ field: 'details.CommandLine', operator: 'contains', value: `${MARKER} 1999` }],
      }),
    );
    assert.equal(filtered.length, 1);
    const rebuilt = await e.search({ job_id: job.id, search: '', browse_events: false }, owner);
    assert.equal((rebuilt as JobStatusResponse).status, 'Completed');
    scan();
    assert.deepEqual([...leaks], []);

    const file = join(dataDir, 'indexes', `${job.id}.sqlite`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    await e.deleteJobs({ ids: [job.id] }, owner);
    assert.deepEqual(readdirSync(join(dataDir, 'indexes')), [], 'deleting the job deletes its index file');
  } finally {
    await e.close();
  }
  assert.deepEqual(filesContaining([dataDir, TMP], NEEDLES), []);
});

test('an engine in memory keeps every index encrypted in an owner-only temporary directory, gone at close', async () => {
  const before = new Set(readdirSync(TMP));
  const e = await Engine.open({ memory: true });
  const made = readdirSync(TMP).filter((n) => !before.has(n) && n.startsWith('tae-indexes-'));
  assert.equal(made.length, 1);
  const dir = join(TMP, made[0]!);
  try {
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const owner: Auth = { token: (await e.createToken()).token, encKey: 'memory engine passphrase 7' };
    const log = markedLog();
    const privateUp = await e.upload({ files: [{ name: 'p.evtx', data: log }] }, owner);
    const publicUp = await e.upload({ files: [{ name: 'q.evtx', data: log }] }, {});
    const jobs = [
      (await e.createParseJob({ file_ids: [privateUp.file_ids[0]![0]], run_sigma_rules: false }, owner)).id,
      (await e.createParseJob({ file_ids: [publicUp.file_ids[0]![0]], run_sigma_rules: false }, {})).id,
    ];
    const leaks = new Set<string>();
    for (const [i, id] of jobs.entries()) {
      const auth = i === 0 ? owner : {};
      const s = await settled(e, id, auth, () => {
        for (const f of filesContaining([TMP], NEEDLES)) leaks.add(f);
      });
      assert.equal(s.status, 'Completed');
      const got = await e.search({ job_id: id, search: MARKER.toLowerCase(), browse_events: true }, auth);
      assert.equal(rowsOf(got).length, 10);
    }
    assert.deepEqual(readdirSync(dir).sort(), jobs.map((id) => `${id}.sqlite`).sort());
    for (const name of readdirSync(dir)) assert.equal(statSync(join(dir, name)).mode & 0o777, 0o600);
    assert.deepEqual([...leaks, ...filesContaining([TMP], NEEDLES)], [], 'the public index is encrypted too');
  } finally {
    await e.close();
  }
  assert.ok(!existsSync(dir));
});

test("no statement of an index build, nor the rebuild's replay, sorts or builds a temporary index: memory does not grow with the job", () => {
  const dir = mkdtempSync(join(TMP, 'plan-'));
  try {
    const stage = openSqlite(join(dir, 'stage.sqlite'));
    stage.exec(STAGE_SCHEMA);
    stage.close();
    const db = openSqlite(join(dir, 'index.sqlite'));
    try {
      attachSqlite(db, join(dir, 'stage.sqlite'), 'stage');
      db.exec(indexSchema('main'));
      const statements = [...copyStaged('main', 'stage')];
      for (const sql of statements) if (sql.startsWith('CREATE')) db.exec(sql);
      const [loadStaged] = buildGramBlock('main');
      const plans = statements
        .filter((s) => s.startsWith('INSERT'))
        .map((sql) => [sql, []] as [string, unknown[]]);
      // The trigram block's read (on the staging file, here attached as `stage`)
      plans.push([loadStaged.replace('FROM staged', 'FROM stage.staged'), [10, 0]]);
      plans.push([replaySql(true), [1, 10, 0, 1, 10]]); // the rebuild's replay
      for (const [sql, params] of plans) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
          (r) => r.detail,
        );
        assert.ok(!plan.some((d) => /TEMP B-TREE|AUTOMATIC/.test(d)), `${sql}\n${plan.join('\n')}`);
      }
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
