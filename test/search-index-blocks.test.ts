/**
 * Trigram blocks built in parallel (src/search/blocks.ts): each builder thread writes its
 * block into a file of its own beside the index, and the completing connection copies the
 * block's postings into the index. The copied blocks must be the very rows one thread builds in
 * place, hold each row under exactly its trigrams and answer every search alike; the block files
 * are encrypted from their first page (a private build), and none is left once the build is
 * done, failed or cancelled.
 */
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { openSqlite, type SqliteDatabase } from '../native/sqlite.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { checkSearchRequest, EventIndex, EventIndexBuilder } from '../src/search/index.js';
import { blockRowsFor, MIN_TEXT_BLOCK_ROWS, TEXT_BLOCK_ROWS } from '../src/search/schema.js';
import { storedText } from '../src/search/text-match.js';
import { decodePostings, plainTrigrams } from './helpers/postings.js';
import { smallLogEvents } from './helpers/small-log.js';

const describe = eventDescriber();
const KEY = Buffer.alloc(32, 9);
const EVENTS = 3000;
const BLOCK_ROWS = 250; // 12 blocks
const dir = mkdtempSync(join(tmpdir(), 'tae-index-blocks-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ['mimikatz', 'Invoke-WebRequest', 'psexesvc', 'Zoë', 'ÄÖÜ-Straße', 'svchost', 'lsass'];
let events: EvtxEvent[];

before(async () => {
  const [base] = smallLogEvents() as [EventDescription];
  const described: EventDescription[] = [];
  for (let i = 0; i < EVENTS; i++) {
    // Times out of arrival order, so row numbers (time order) differ from arrival numbers.
    const t = new Date(Date.UTC(2026, 2, 1, 10) + ((i * 7919) % EVENTS) * 1000);
    described.push({
      ...base,
      time: t.toISOString().replace('Z', '0000Z'),
      eventId: 4688 + (i % 3),
      computer: `host-${i % 17}`,
      eventData: {
        CommandLine: `${WORDS[i % WORDS.length]} /c ${WORDS[(i * 3) % WORDS.length]} run ${i}`,
        TargetUserName: `user${i % 97}`,
      },
    });
  }
  events = [];
  for await (const r of parseEvtx(writeEvtx(described))) if (r.event) events.push(r.event);
  assert.equal(events.length, EVENTS);
});

function builder(name: string, threads: number, worker: boolean) {
  const b = new EventIndexBuilder(
    { path: join(dir, name), key: KEY },
    { sigma: false, describe, textBlockRows: BLOCK_ROWS, textBlockThreads: threads, worker },
  );
  for (const e of events) b.add(e, 'a.evtx', []);
  return b;
}

const open = (name: string) => {
  const db = openSqlite(join(dir, name), { key: KEY });
  db.pragma('cache_size = -1024');
  return db;
};

const rowsOf = (db: SqliteDatabase, table: string) => db.prepare(`SELECT * FROM ${table}`).raw(true).all();

/**
 * Each row's trigrams as a plain reading of the index's promise (code points of the folded text
 * the row's columns give, three at a time, none across two values): gram → ascending row numbers.
 */
function expectedPostings(db: SqliteDatabase): Map<string, number[]> {
  const titles = new Map(db.prepare('SELECT no, title FROM rules').raw().all() as [number, string][]);
  const want = new Map<string, number[]>();
  const rows = db
    .prepare(
      'SELECT n, event_id, record_id, time, provider, computer, message, data, channel, user_sid, sigma FROM events ORDER BY n',
    )
    .raw()
    .all() as unknown[][];
  for (const [n, ...columns] of rows) {
    for (const g of plainTrigrams(storedText(titles, ...columns)))
      want.set(g, [...(want.get(g) ?? []), n as number]);
  }
  return want;
}

/** Every block's postings, decoded: `${block} ${gram}` → ascending row numbers. */
function storedPostings(db: SqliteDatabase, blockRows: number): Map<string, number[]> {
  const got = new Map<string, number[]>();
  const rows = db
    .prepare('SELECT block, gram, part, postings FROM events_grams ORDER BY block, gram, part')
    .raw()
    .all() as [number, string, number, Uint8Array][];
  for (const [block, gram, , postings] of rows) {
    const key = `${block} ${gram}`;
    got.set(key, [...(got.get(key) ?? []), ...decodePostings([postings], block * blockRows)]);
  }
  return got;
}

test('blocks built by several threads equal the blocks one thread builds, hold every row under each of its trigrams and answer every search alike', async () => {
  await builder('serial.sqlite', 1, false).finish();
  await builder('parallel.sqlite', 3, true).finish();
  assert.deepEqual(
    readdirSync(dir)
      .filter((f) => f.startsWith('parallel'))
      .sort(),
    ['parallel.sqlite'],
    'no block file (nor staging file) is left',
  );
  const serial = open('serial.sqlite');
  const parallel = open('parallel.sqlite');
  try {
    const blocks = Math.ceil(EVENTS / BLOCK_ROWS);
    const all = 'SELECT block, gram, part, hex(postings) FROM events_grams ORDER BY block, gram, part';
    assert.deepEqual(rowsOf(parallel, `(${all})`), rowsOf(serial, `(${all})`));
    assert.equal(
      parallel.prepare("SELECT value FROM meta WHERE key = 'text_blocks'").pluck().get(),
      String(blocks),
    );
    // The postings are exactly each row's trigrams, block by block.
    const want = new Map<string, number[]>();
    for (const [gram, rows] of expectedPostings(parallel))
      for (const n of rows) {
        const key = `${Math.floor((n - 1) / BLOCK_ROWS)} ${gram}`;
        want.set(key, [...(want.get(key) ?? []), n]);
      }
    const got = storedPostings(parallel, BLOCK_ROWS);
    assert.ok(want.size > 1000, `the rows hold trigrams (${want.size})`);
    assert.deepEqual(new Map([...got].sort()), new Map([...want].sort()));
    assert.deepEqual(rowsOf(parallel, "sqlite_schema WHERE name LIKE 'events_text%'"), [], 'no FTS5 table');

    const search = (db: SqliteDatabase, body: Record<string, unknown>) => {
      const c = checkSearchRequest({ search: '', browse_events: true, show: 100, ...body });
      if (!c.ok) throw new Error(c.details);
      const rows = [];
      for (let page = 1; page <= 10; page++) {
        const got = EventIndex.of(db).search({ ...c.query, page });
        rows.push(...got);
        if (got.length < 100) break;
      }
      return rows;
    };
    let hits = 0;
    for (const text of [...WORDS, 'mimi', 'run 1', 'run 2999', 'user9', 'zoë', 'äöü', 'no such text', 'ab']) {
      const want = search(serial, { search: text });
      assert.deepEqual(search(parallel, { search: text }), want, text);
      hits += want.length;
    }
    assert.ok(hits > 1000, `the searches found events (${hits})`);
    const window = {
      start_time: Date.UTC(2026, 2, 1, 10, 20),
      end_time: Date.UTC(2026, 2, 1, 10, 30),
      search: 'svchost',
    };
    assert.deepEqual(search(parallel, window), search(serial, window));
  } finally {
    serial.close();
    parallel.close();
  }
});

/** The first bytes of a file (fewer when it is shorter or gone). */
function head(path: string): Buffer {
  const b = Buffer.alloc(16);
  try {
    const fd = openSync(path, 'r');
    try {
      return b.subarray(0, readSync(fd, b, 0, 16, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return Buffer.alloc(0);
  }
}

/** Polls `dir` for block files until `done` settles: how many were seen, and any plain SQLite one. */
async function watchBlocks(done: Promise<unknown>) {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  const seen = new Set<string>();
  const plain = new Set<string>();
  while (!settled) {
    for (const f of readdirSync(dir).filter((f) => f.includes('.block-'))) {
      seen.add(f);
      if (head(join(dir, f)).toString('latin1').startsWith('SQLite format 3')) plain.add(f);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  return { seen, plain };
}

test("a private build's block files are encrypted from their first page", async () => {
  const done = builder('watched.sqlite', 2, true).finish();
  const { seen, plain } = await watchBlocks(done);
  await done;
  assert.ok(seen.size > 0, 'the scans saw block files');
  assert.deepEqual([...plain], []);
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.startsWith('watched')),
    ['watched.sqlite'],
  );
});

test('a build cancelled while its blocks are built leaves no file behind', async () => {
  const b = builder('cancelled.sqlite', 2, true);
  const abort = new AbortController();
  const done = b.finish(abort.signal);
  for (let i = 0; i < 10_000 && !readdirSync(dir).some((f) => f.startsWith('cancelled.sqlite.block-')); i++)
    await new Promise((r) => setTimeout(r, 1));
  abort.abort();
  await assert.rejects(done, { code: 'CANCELLED' });
  const left = () => readdirSync(dir).filter((f) => f.startsWith('cancelled'));
  assert.deepEqual(left(), []);
  await new Promise((r) => setTimeout(r, 500)); // threads that were still running have stopped
  assert.deepEqual(left(), []);
});

test('blocks are sized so every thread has several: a multiple of the threads, at least four each while blocks keep MIN_TEXT_BLOCK_ROWS', () => {
  const blocks = (events: number, threads: number) => Math.ceil(events / blockRowsFor(events, threads));
  // One 238 MB file: one block before, so one core built it while the other idled.
  assert.equal(
    blocks(122_725, 2),
    6,
    'eight would be under MIN_TEXT_BLOCK_ROWS rows: the most that keep it, even',
  );
  // The completing thread copies the events first (about a block's time with two blocks a thread).
  assert.equal(blocks(489_873, 2), 8);
  assert.equal(blocks(300_000, 2), 8);
  assert.equal(blocks(2 * MIN_TEXT_BLOCK_ROWS + 10, 2), 2);
  assert.equal(blocks(1_000_000, 2), 8, 'a million events keep blocks near TEXT_BLOCK_ROWS');
  assert.ok(blocks(1_000_000, 8) >= 30, 'about four blocks for each of eight threads');
  assert.equal(blocks(122_725, 1), 1);
  assert.equal(blocks(10_000, 8), 1, 'small builds stay one block');
  for (const [events, threads] of [
    [1, 1],
    [50_000, 3],
    [5_000_000, 2],
    [131_073, 2],
  ] as const) {
    const rows = blockRowsFor(events, threads);
    assert.ok(rows >= MIN_TEXT_BLOCK_ROWS && rows <= TEXT_BLOCK_ROWS, `${events}/${threads}: ${rows}`);
  }
});

test('a build without textBlockRows records the rows per block it chose for its threads', async () => {
  const n = 2 * MIN_TEXT_BLOCK_ROWS + 10;
  const b = new EventIndexBuilder(
    { path: join(dir, 'auto.db'), key: null },
    { sigma: false, textBlockThreads: 2 },
  );
  for (let i = 0; i < n; i++) b.add(events[i % EVENTS]!, `f${Math.floor(i / EVENTS)}.evtx`, []);
  const built = await b.finish();
  const db = openSqlite(built.path, { mustExist: true });
  try {
    const { meta } = EventIndex.of(db);
    assert.equal(meta.blockRows, blockRowsFor(n, 2));
    assert.equal(meta.textBlocks, 2);
    assert.equal(meta.events, built.events);
  } finally {
    db.close();
  }
});
