/**
 * Index format 3 keeps its trigram postings itself (grams.ts); format 2 kept them in FTS5
 * tables; both store each value once and make an event's folded text again from its row. Format
 * 1 kept the event as keyed JSON and its folded text in `bodies`. The same events, odd ones
 * included (characters that JavaScript folds to ASCII, LIKE and JSON metacharacters, lone
 * surrogates, multi-valued and `Data[n]`-named data, no time), must give the same answers in
 * all three, and indexes of formats 1 and 2 in an existing data directory keep answering.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { openSqlite, type SqliteDatabase } from '../native/sqlite.js';
import type { SigmaMatchInput } from '../src/analysis/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { type PackedRows, RowPacker, type RowRef } from '../src/rows/index.js';
import {
  checkSearchRequest,
  EventIndex,
  EventIndexBuilder,
  INDEX_FORMAT,
  indexRow,
  rebuildInsights,
  restoreEvent,
} from '../src/search/index.js';
import { BUILD_PAGE_BYTES } from '../src/search/schema.js';
import { type Arrival, writeFormat1Index } from './helpers/index-format1.js';
import { writeFormat2Index } from './helpers/index-format2.js';

type Rule = SigmaMatchInput['rule'];
const RULES: Rule[] = [
  { title: 'Kelvin \u212a Rule', level: 'high', tags: ['attack.t1003'] },
  { title: 'Ünïcode ΟΔΟΣ', level: 'low', tags: [] },
];
const describe = eventDescriber();
const dir = mkdtempSync(join(tmpdir(), 'tae-index-format-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Values that put the text test on every path: plain, beyond ASCII, escaped in JSON, odd. */
const ODD = [
  'İstanbul',
  '\u212aelvin',
  '50% off_sale',
  'say "hi" \\ back\\slash',
  'ctl\u0001char',
  'lone \ud800 surrogate',
  'ΟΔΟΣ',
  'plain value',
];

async function events(): Promise<EvtxEvent[]> {
  const base = Date.UTC(2024, 4, 1);
  const described = Array.from({ length: 60 }, (_, i) => ({
    time: new Date(base + (i % 20) * 1000).toISOString().replace('Z', '1234Z'),
    provider: i % 3 === 0 ? 'Microsoft-Windows-Security-Auditing' : 'Ödd-Provider',
    eventId: i % 2 === 0 ? 4688 : 7045,
    channel: i % 5 === 0 ? 'Security' : 'Kanal-\u212a',
    computer: i % 4 === 0 ? 'WS-İ01' : 'srv-02',
    ...(i % 3 === 1 ? { userSid: 'S-1-5-18' } : {}),
    eventData: { CommandLine: `${ODD[i % ODD.length]} #${i}`, Path: ODD[(i + 3) % ODD.length]! },
    ...(i % 7 === 0 ? { unnamedData: ['first', ODD[i % ODD.length]!] } : {}),
  }));
  const out: EvtxEvent[] = [];
  for await (const r of parseEvtx(writeEvtx(described))) if (r.event) out.push(r.event);
  // Shapes a decoder gives rarely; the 7th column cannot give them back.
  const odd = (i: number, e: Partial<EvtxEvent>): EvtxEvent => ({ ...out[i]!, ...e });
  out.push(
    odd(1, { data: { Multi: ['a', 'b, c'], 'Data[0]': 'named like unnamed' }, unnamedData: ['x'] }),
    odd(2, { timestamp: Number.NaN, timestampText: '' }),
    odd(3, { timestampText: '2024-05-01T00:00:03Z', qualifiers: 16384, userDataName: 'LogFileCleared' }),
    odd(4, {
      channel: 'lone \udc00 channel',
      provider: 'Prov \ud800',
      data: { '7': 'seven', b: 'bee', '1': 'one' },
    }),
    odd(5, { timestamp: 9e15, timestampText: 'far' }),
  );
  return out;
}

let arrivals: Arrival[];
const correlations: [Rule, number][] = [[RULES[0]!, Date.UTC(2024, 4, 1, 0, 0, 5)]];

/**
 * The current format built from `arrivals`; `packed`: from rows packed as a decode worker packs
 * them (chunks of 7 events), staged on a writer thread from the 20th event on.
 */
async function buildCurrent(path: string, packed: boolean): Promise<void> {
  const b = new EventIndexBuilder(
    { path, key: null },
    {
      sigma: true,
      describe,
      textBlockRows: 16,
      batchSize: 7,
      worker: packed,
      ...(packed ? { writerThreadFrom: 20 } : {}),
    },
  );
  const packer = new RowPacker(describe);
  let chunk: Arrival[] = [];
  const flush = () => {
    const rows: PackedRows = packer.take();
    chunk.forEach((a, at) => {
      const row: RowRef = { packed: rows, at };
      if (a.kind === 'event') b.add(row, a.file, a.rules);
      else b.duplicate(row, a.file);
    });
    chunk = [];
  };
  for (const a of arrivals) {
    if (!packed) {
      if (a.kind === 'event') b.add(a.e, a.file, a.rules);
      else b.duplicate(a.e, a.file);
      continue;
    }
    packer.add(a.e);
    chunk.push(a);
    if (chunk.length === 7) flush();
  }
  if (chunk.length > 0) flush();
  for (const [rule, ts] of correlations) b.correlation(rule, ts);
  for (const f of ['a.evtx', 'b.evtx', 'copy.evtx']) b.fileDiagnostics(f, []);
  await b.finish();
}

let v1: SqliteDatabase;
let v2: SqliteDatabase;
let v3: SqliteDatabase;

before(async () => {
  const all = await events();
  arrivals = all.flatMap((e, i): Arrival[] => {
    const rules = RULES.filter((_, k) => (i + k) % 3 === 0);
    const event: Arrival = { kind: 'event', e, file: i < 30 ? 'a.evtx' : 'b.evtx', rules };
    return i % 9 === 4 ? [event, { kind: 'duplicate', e, file: 'copy.evtx' }] : [event];
  });
  writeFormat1Index(join(dir, 'v1.sqlite'), arrivals, { sigma: true, describe, blockRows: 16, correlations });
  await buildCurrent(join(dir, 'v3.sqlite'), false);
  v1 = openSqlite(join(dir, 'v1.sqlite'), { readonly: true });
  writeFormat2Index(join(dir, 'v3.sqlite'), join(dir, 'v2.sqlite'));
  v2 = openSqlite(join(dir, 'v2.sqlite'), { readonly: true });
  v3 = openSqlite(join(dir, 'v3.sqlite'), { readonly: true });
});
after(() => {
  v1?.close();
  v2?.close();
  v3?.close();
});

const query = (body: Record<string, unknown>) => {
  const c = checkSearchRequest({ search: '', browse_events: true, ...body });
  if (!c.ok) throw new Error(c.details);
  return c.query;
};

/** Every page (show 100) of `body` from an index. */
function pages(db: SqliteDatabase, body: Record<string, unknown>) {
  const rows = [];
  for (let page = 1; page <= 10; page++) {
    const got = EventIndex.of(db).search(query({ ...body, page, show: 100 }));
    rows.push(...got);
    if (got.length < 100) break;
  }
  return rows;
}

test('rows packed where the events are decoded build the same index, table for table, as the events', async () => {
  const path = join(dir, 'v3-packed.sqlite');
  await buildCurrent(path, true);
  const packed = openSqlite(path, { readonly: true });
  try {
    const tables = v3
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    assert.ok(tables.includes('events') && tables.includes('events_grams') && tables.includes('duplicates'));
    for (const t of tables) {
      const all = (db: SqliteDatabase) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).raw().all();
      assert.deepEqual(all(packed), all(v3), `table ${t}`);
    }
    assert.equal((v3.prepare('SELECT count(*) FROM duplicates').pluck().get() as number) > 0, true);
  } finally {
    packed.close();
  }
});

test('the builder writes the current format; indexes of formats 1 and 2 still open', () => {
  assert.equal(INDEX_FORMAT, 3);
  assert.equal(EventIndex.of(v1).format, 1);
  assert.equal(EventIndex.of(v2).format, 2);
  assert.equal(EventIndex.of(v3).format, 3);
  const names = (db: SqliteDatabase) =>
    (
      db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE name IN ('bodies', 'events', 'events_grams') OR name LIKE 'events_text%'`,
        )
        .all() as {
        name: string;
      }[]
    )
      .map((r) => r.name)
      .filter((n) => !/^events_text_.*_(config|data|idx)$/.test(n)) // FTS5's shadow tables
      .map((n) => n.replace(/^(events_text_)\d+$/, '$1k'))
      .filter((n, i, all) => all.indexOf(n) === i)
      .sort();
  assert.deepEqual(names(v1), ['bodies', 'events', 'events_text_k']);
  assert.deepEqual(names(v2), ['events', 'events_text_k'], 'format 2 keeps no folded copy');
  assert.deepEqual(names(v3), ['events', 'events_grams'], 'format 3 keeps its own postings, no FTS5 table');
});

test('every text and filter answers the same from both formats, odd characters included', () => {
  const texts = [
    '',
    'i',
    'k',
    'ki',
    'ist',
    'i\u0307',
    '\u212a'.toLowerCase(),
    'elvin',
    'kanal-k',
    '%',
    '_',
    '50% off_',
    '"',
    '"hi"',
    '\\',
    'back\\s',
    '\u0001',
    'ctl\u0001char',
    '\ud800',
    '\ufffd',
    'ς',
    'σ',
    'οδος',
    'ödd',
    'ü',
    'kelvin k rule',
    'οδοσ',
    'multi',
    'b, c',
    'named like',
    'seven',
    '#1',
    'zq',
    'no such text anywhere',
    '2024-05-01 00:00:1',
    '4688',
    's-1-5-18',
  ];
  const missing: string[] = [];
  for (const search of texts) {
    const want = pages(v1, { search });
    assert.deepEqual(pages(v2, { search }), want, `search ${JSON.stringify(search)}`);
    assert.deepEqual(pages(v3, { search }), want, `search ${JSON.stringify(search)} (format 3)`);
    if (want.length === 0) missing.push(search);
  }
  // Folded, `İ` is `i̇` (two characters) and a final `Σ` is `ς`.
  assert.deepEqual(missing, ['ki', 'ist', 'σ', 'οδοσ', 'zq', 'no such text anywhere']);
  const filters = [
    { field: 'details.CommandLine', operator: 'contains', value: '%' },
    { field: 'details.Path', operator: 'equals', value: 'ΟΔΟΣ' },
    { field: 'details.Data[0]', operator: 'not_equals', value: 'first' },
    { field: 'details.Multi', operator: 'starts_with', value: 'a, b' },
    { field: 'sigma_matches', operator: 'contains', value: 'k rule' },
    { field: 'computer', operator: 'does_not_contain', value: 'i̇' },
    { field: 'provider', operator: 'ends_with', value: '\ufffd' },
  ];
  for (const f of filters) {
    for (const search of ['', 'i', 'value', 'ΟΔΟΣ']) {
      const body = { search, filter: [f] };
      assert.deepEqual(pages(v2, body), pages(v1, body), JSON.stringify(body));
      assert.deepEqual(pages(v3, body), pages(v1, body), `${JSON.stringify(body)} (format 3)`);
    }
  }
  const window = { start_time: Date.UTC(2024, 4, 1, 0, 0, 4), end_time: Date.UTC(2024, 4, 1, 0, 0, 9) };
  for (const v of [v2, v3])
    assert.deepEqual(pages(v, { ...window, search: 'k' }), pages(v1, { ...window, search: 'k' }));
});

test("the builder writes 16 KiB pages; the same index with SQLite's default 4 KiB pages answers alike", () => {
  assert.equal(v3.pragma('page_size', { simple: true }), BUILD_PAGE_BYTES);
  assert.equal(BUILD_PAGE_BYTES, 16_384);
  const path = join(dir, 'v3-4k.sqlite');
  copyFileSync(join(dir, 'v3.sqlite'), path);
  const rewrite = openSqlite(path);
  rewrite.pragma('page_size = 4096');
  rewrite.exec('VACUUM');
  rewrite.close();
  const small = openSqlite(path, { readonly: true });
  try {
    assert.equal(small.pragma('page_size', { simple: true }), 4096);
    for (const body of [
      { search: '' },
      { search: 'k' },
      { search: 'ödd' },
      { search: 'value', filter: [{ field: 'details.Multi', operator: 'starts_with', value: 'a, b' }] },
      { search: 'no such text anywhere' },
    ])
      assert.deepEqual(pages(small, body), pages(v3, body), JSON.stringify(body));
  } finally {
    small.close();
  }
});

test('the analysis rebuilt from either format is the same, over everything and over a window', () => {
  for (const [start, end] of [
    [null, null],
    [Date.UTC(2024, 4, 1, 0, 0, 3), Date.UTC(2024, 4, 1, 0, 0, 12)],
  ] as const) {
    const o = { start, end, describe };
    for (const v of [v2, v3])
      assert.deepEqual(rebuildInsights(EventIndex.of(v), o), rebuildInsights(EventIndex.of(v1), o));
  }
});

test('a stored row gives back the very event it was made from', () => {
  for (const a of arrivals) {
    const [ts, , eventId, recordId, , provider, computer, , data, , channel, userSid, extra] = indexRow(
      a.e,
      1,
      [],
      [],
      describe,
    );
    // Text columns come back from SQLite as UTF-8 would give them.
    const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('utf8');
    const stored = {
      ts,
      eventId,
      recordId,
      provider: utf8(provider),
      computer: utf8(computer),
      data,
      channel: utf8(channel),
      userSid: userSid === null ? null : utf8(userSid),
      extra,
    };
    const back = restoreEvent(stored);
    assert.deepStrictEqual(back, a.e);
    assert.deepEqual(Object.keys(back.data), Object.keys(a.e.data), 'event data keep their order');
  }
});
