/**
 * Data directories from before schema 3 kept a private job's index as one sealed database
 * image in `job_index_chunks`. Such a directory is made here the way that code left it (the
 * rows written directly, user_version 2), then opened: nothing is lost, the image becomes an
 * encrypted index file on the first search with the owner's key, and searches answer as
 * before.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { openSqlite } from '../native/sqlite.js';
import { AAD, deriveOwnerKey, open, SegmentSealer, tokenDigest } from '../src/crypto/index.js';
import { isTaeError } from '../src/errors/index.js';
import { Engine } from '../src/service/index.js';
import { indexAad, indexFileKey, SCHEMA_VERSION } from '../src/store/index.js';
import { filesContaining, markerNeedles } from './helpers/marker-scan.js';
import { smallLogEvents } from './helpers/small-log.js';

const MARKER = `Legacy-${randomBytes(6).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'tae-legacy-index-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const query = (job_id: string) => ({ job_id, search: MARKER.toLowerCase(), browse_events: true, show: 100 });

/** Turns the job's index file back into the layout before schema 3: a sealed image in rows. */
async function makeLegacy(jobId: string, owner: { token: string; encKey: string }): Promise<void> {
  const db = openSqlite(join(dir, 'engine.db'));
  try {
    const salt = (
      db.prepare('SELECT key_salt FROM tokens WHERE id = ?').get(tokenDigest(owner.token)) as {
        key_salt: Buffer;
      }
    ).key_salt;
    const wrapped = (
      db.prepare('SELECT wrapped_key FROM jobs WHERE id = ?').get(jobId) as { wrapped_key: Buffer }
    ).wrapped_key;
    const jobKey = open(await deriveOwnerKey(owner.encKey, salt), wrapped, AAD.jobKey(jobId));
    const file = join(dir, 'indexes', `${jobId}.sqlite`);
    const index = openSqlite(file, { key: indexFileKey(jobId, jobKey), readonly: true });
    const image = index.serialize(); // the pages in clear, as the old in-memory build held them
    index.close();
    rmSync(file);
    // What the old commitImage wrote: the image in AES-GCM segments under the job key.
    const sealer = new SegmentSealer(jobKey, indexAad(jobId));
    const sealed = Buffer.concat([sealer.header(), ...sealer.push(image), sealer.finish()]);
    db.transaction(() => {
      db.prepare('DELETE FROM job_indexes WHERE job_id = ?').run(jobId);
      db.prepare(`INSERT INTO job_indexes VALUES (?, 'image', 1, ?, ?)`).run(jobId, image.length, Date.now());
      db.prepare('INSERT INTO job_index_chunks VALUES (?, 0, ?)').run(jobId, sealed);
      db.exec('DROP INDEX job_indexes_legacy');
      db.pragma('user_version = 2');
    })();
    image.fill(0);
  } finally {
    db.close();
  }
}

test('a sealed index image of an old data directory becomes an encrypted file on its first search, answering as before', async () => {
  let e = await Engine.open({ dataDir: dir });
  const owner = { token: (await e.createToken()).token, encKey: 'legacy index passphrase 1' };
  const evtx = writeEvtx(smallLogEvents().map((ev) => ({ ...ev, computer: MARKER })));
  const up = await e.upload({ files: [{ name: 'old.evtx', data: evtx }] }, owner);
  const job = await e.createParseJob({ file_ids: [up.file_ids[0]![0]], run_sigma_rules: false }, owner);
  for (let i = 0; i < 500 && (await e.getJob({ job_id: job.id }, owner)).status !== 'Completed'; i++)
    await new Promise((r) => setTimeout(r, 10));
  const before = await e.search(query(job.id), owner);
  const rebuiltBefore = await e.search({ job_id: job.id, search: '', browse_events: false }, owner);
  await e.close();

  await makeLegacy(job.id, owner);
  e = await Engine.open({ dataDir: dir });
  try {
    const rows = () => {
      const db = openSqlite(join(dir, 'engine.db'), { readonly: true });
      try {
        return {
          version: db.pragma('user_version', { simple: true }),
          index: db.prepare('SELECT kind, sealed FROM job_indexes WHERE job_id = ?').get(job.id),
          chunks: (db.prepare('SELECT count(*) AS n FROM job_index_chunks').get() as { n: number }).n,
        };
      } finally {
        db.close();
      }
    };
    assert.deepEqual(rows(), { version: SCHEMA_VERSION, index: { kind: 'image', sealed: 1 }, chunks: 1 });
    await assert.rejects(
      e.search(query(job.id), { token: owner.token }),
      (err) => isTaeError(err) && err.status === 403,
    );
    assert.deepEqual(rows().index, { kind: 'image', sealed: 1 }, 'without the key nothing changes');

    assert.deepEqual(await e.search(query(job.id), owner), before);
    assert.deepEqual(rows(), { version: SCHEMA_VERSION, index: { kind: 'file', sealed: 1 }, chunks: 0 });
    assert.ok(existsSync(join(dir, 'indexes', `${job.id}.sqlite`)));
    assert.deepEqual(
      await e.search({ job_id: job.id, search: '', browse_events: false }, owner),
      rebuiltBefore,
    );
  } finally {
    await e.close();
  }
  e = await Engine.open({ dataDir: dir });
  try {
    assert.equal(e.recovery.indexFilesRemoved, 0);
    assert.deepEqual(await e.search(query(job.id), owner), before);
  } finally {
    await e.close();
  }
  assert.deepEqual(filesContaining([dir], markerNeedles(MARKER, MARKER.toLowerCase())), []);
});
