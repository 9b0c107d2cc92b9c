/**
 * Acceptance 3, the index itself: 1,210 generated events (two EVTX files written with the
 * project's writer and decoded, plus events without a time) go into an event index, and every
 * search (text of every length, every operator on every field, time windows, paging up to
 * page 10 × 100) must return exactly what a naive in-memory filter over the same events
 * returns, in the same order. The rebuild must equal the analyzer fed the same events.
 * Over 400 lines because every behaviour is checked on one index, generated and built once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import { prng } from '../fixtures/prng.js';
import { openSqlite, type SqliteDatabase } from '../native/sqlite.js';
import {
  createAnalyzer,
  flattenResults,
  indexTableRow,
  type SigmaMatchInput,
} from '../src/analysis/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import type { IndexTableRow } from '../src/insights/index.js';
import { eventDescriber, FILTER_OPERATORS } from '../src/lookup/index.js';
import { parseEvtx } from '../src/parse/index.js';
import {
  checkSearchRequest,
  EventIndex,
  EventIndexBuilder,
  eventTable,
  rebuildInsights,
  type SearchQuery,
} from '../src/search/index.js';

type Rule = SigmaMatchInput['rule'];
const RULES: Rule[] = [
  { title: 'Mimikatz Use', id: 'r1', level: 'high', tags: ['attack.t1003'] },
  { title: 'Suspicious PowerShell Download', level: 'medium', tags: [] },
  { title: 'Ünïcode Rule Title', level: 'low', tags: [] },
  { title: 'Service Install', tags: ['attack.persistence'] },
];
const describeEvent = eventDescriber();

interface Indexed {
  readonly e: EvtxEvent;
  readonly file: string;
  readonly rules: Rule[];
  readonly row: IndexTableRow;
  readonly arrival: number;
}

const USERS = ['alice', 'Bob.Admin', 'SYSTEM', 'svc_backup', 'Zoë'];
const PATHS = [
  'C:\\Windows\\System32\\cmd.exe',
  'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  'C:\\Users\\Public\\mimikatz.exe',
  'C:\\Program Files\\Ünïcode\\app.exe',
];
const WORDS = [
  'Invoke-Mimikatz',
  'whoami',
  '/all',
  "' OR 1=1 --",
  '"quoted"',
  '%TEMP%',
  'a_b',
  'NEAR(x y)',
  '*',
];

function generate(seed: number, count: number, firstRecordId: number): EventDescription[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const base = Date.UTC(2024, 2, 1);
  return Array.from({ length: count }, (_, i): EventDescription => {
    // Whole seconds, often shared: ordering falls back to the record id.
    const time = new Date(base + Math.floor(r() * 400) * 1000).toISOString();
    const recordId = firstRecordId + i;
    const computer = pick(['WS-01.corp.local', 'srv-db-02', 'LAPTOP-ÄÖÜ', 'DC01.CORP.local']);
    const common = { recordId, time, computer, ...(r() < 0.3 ? { userSid: 'S-1-5-18' } : {}) };
    const cmd = `${pick(PATHS)} ${pick(WORDS)} ${pick(WORDS)}`;
    switch (Math.floor(r() * 6)) {
      case 0:
        return {
          ...common,
          provider: 'Microsoft-Windows-Security-Auditing',
          eventId: 4624,
          channel: 'Security',
          eventData: {
            TargetUserName: pick(USERS),
            LogonType: pick(['2', '3', '10']),
            IpAddress: '10.0.0.7',
          },
        };
      case 1:
        return {
          ...common,
          provider: 'Microsoft-Windows-Security-Auditing',
          eventId: 4688,
          channel: 'Security',
          eventData: { NewProcessName: pick(PATHS), CommandLine: cmd, ParentProcessName: pick(PATHS) },
        };
      case 2:
        return {
          ...common,
          provider: 'Microsoft-Windows-Sysmon',
          eventId: 1,
          channel: 'Microsoft-Windows-Sysmon/Operational',
          eventData: { Image: pick(PATHS), CommandLine: cmd, User: `CORP\\${pick(USERS)}` },
        };
      case 3:
        return {
          ...common,
          provider: 'Service Control Manager',
          eventId: 7045,
          channel: 'System',
          eventData: { ServiceName: pick(['PSEXESVC', 'Updater', 'ßvc']), ImagePath: pick(PATHS) },
        };
      case 4:
        return {
          ...common,
          provider: 'Ünïcödé-Provider',
          eventId: 11,
          channel: 'Application',
          unnamedData: [pick(WORDS), pick(USERS)],
        };
      default:
        return {
          ...common,
          provider: 'Microsoft-Windows-PowerShell',
          eventId: 4104,
          channel: 'Microsoft-Windows-PowerShell/Operational',
          eventData: { ScriptBlockText: `${pick(WORDS)}; ${pick(WORDS)}`, Path: '' },
        };
    }
  });
}

async function decode(name: string, bytes: Uint8Array): Promise<{ e: EvtxEvent; file: string }[]> {
  const out: { e: EvtxEvent; file: string }[] = [];
  for await (const r of parseEvtx(bytes)) if (r.event) out.push({ e: r.event, file: name });
  return out;
}

async function corpus(): Promise<Indexed[]> {
  const decoded = [
    ...(await decode('one.evtx', writeEvtx(generate(1, 700, 1)))),
    ...(await decode('two.evtx', writeEvtx(generate(2, 500, 300)))),
  ];
  // Events without a valid time (a damaged TimeCreated) sort first and leave any time window.
  for (const d of decoded.slice(0, 10))
    decoded.push({ e: { ...d.e, timestamp: Number.NaN }, file: 'three.evtx' });
  const r = prng(3);
  return decoded.map(({ e, file }, arrival) => ({
    e,
    file,
    arrival,
    rules: RULES.filter(() => r() < 0.15),
    row: indexTableRow(e, describeEvent),
  }));
}

// The naive side: every event's displayed values, tested one by one.
const lower = (s: string) => s.toLowerCase();
const POSITIVE: Record<string, (c: string, v: string) => boolean> = {
  equals: (c, v) => c === v,
  contains: (c, v) => c.includes(v),
  starts_with: (c, v) => c.startsWith(v),
  ends_with: (c, v) => c.endsWith(v),
};
const NEGATION: Record<string, string> = { not_equals: 'equals', does_not_contain: 'contains' };

function values(x: Indexed, field: string): string[] {
  const [cells, data] = x.row;
  const by: Record<string, string[]> = {
    event_id: [cells[0]],
    record_id: [cells[1]],
    timestamp: [cells[2]],
    provider: [cells[3]],
    computer: [cells[4]],
    sigma_matches: x.rules.map((r) => r.title),
  };
  if (field.startsWith('details.')) {
    const v = data[field.slice(8)];
    return v === undefined ? [] : [v];
  }
  return by[field]!;
}

function naive(all: readonly Indexed[], q: SearchQuery & { fields: string[] }): Indexed[] {
  const text = (x: Indexed) => [
    ...x.row[0],
    ...Object.values(x.row[1]),
    x.e.channel,
    ...(x.e.userSid ? [x.e.userSid] : []),
    ...x.rules.map((r) => r.title),
  ];
  return all
    .filter((x) => q.start === null || x.e.timestamp >= q.start)
    .filter((x) => q.end === null || x.e.timestamp <= q.end)
    .filter((x) => text(x).some((v) => lower(v).includes(q.text)))
    .filter((x) =>
      q.filters.every((f, i) => {
        const op = NEGATION[f.operator] ?? f.operator;
        const hit = values(x, q.fields[i]!).some((v) => POSITIVE[op]!(lower(v), f.value));
        return NEGATION[f.operator] ? !hit : hit;
      }),
    )
    .sort((a, b) => {
      const ta = Number.isNaN(a.e.timestamp) ? -Infinity : a.e.timestamp;
      const tb = Number.isNaN(b.e.timestamp) ? -Infinity : b.e.timestamp;
      return ta - tb || a.e.recordId - b.e.recordId || a.arrival - b.arrival;
    });
}

let all: Indexed[];
let db: SqliteDatabase;
let index: EventIndex;
let mainDir: string | undefined;
const MAIN_KEY = Buffer.alloc(32, 7);

/** What the job saw, in order: every event, and now and then a duplicate of an earlier one. */
function* arrivals(): Generator<{ x: Indexed; duplicateIn?: string }> {
  for (const [i, x] of all.entries()) {
    yield { x };
    if (i % 100 === 50) yield { x: all[i - 10]!, duplicateIn: 'copy.evtx' };
  }
}

function build(target: ConstructorParameters<typeof EventIndexBuilder>[0], worker = true) {
  // Small batches and trigram blocks of 100 rows: pages and windows cross many blocks. With
  // worker, staging moves to a writer thread after 300 events, as a large job's does.
  const b = new EventIndexBuilder(target, {
    sigma: true,
    describe: describeEvent,
    batchSize: 97,
    textBlockRows: 100,
    worker,
    writerThreadFrom: 300,
  });
  for (const { x, duplicateIn } of arrivals()) {
    if (duplicateIn === undefined) b.add(x.e, x.file, x.rules);
    else b.duplicate(x.e, duplicateIn);
  }
  b.fileDiagnostics('one.evtx', []);
  b.correlation(RULES[0]!, Date.UTC(2024, 2, 1, 0, 3));
  return b.finish();
}

before(async () => {
  all = await corpus();
  // An encrypted index file (as a private job's), read through a small page cache.
  mainDir = mkdtempSync(join(tmpdir(), 'tae-search-'));
  const built = await build({ path: join(mainDir, 'index.sqlite'), key: MAIN_KEY });
  db = openSqlite(built.path, { key: MAIN_KEY, readonly: true });
  db.pragma('cache_size = -512');
  index = EventIndex.of(db);
});
after(() => {
  db?.close();
  if (mainDir !== undefined) rmSync(mainDir, { recursive: true, force: true });
});

type Body = Record<string, unknown>;
const query = (body: Body): SearchQuery => {
  const c = checkSearchRequest({ search: '', browse_events: true, ...body });
  if (!c.ok) throw new Error(`${c.problem}: ${c.details}`);
  return c.query;
};

/** Every page of `body` (show 100), as the naive side orders them; at most 1,000 events. */
function agree(body: Body, label = JSON.stringify(body)): number {
  const q = query(body);
  const fields = ((body.filter as { field: string }[] | undefined) ?? []).map((f) => f.field);
  const want = naive(all, { ...q, fields })
    .slice(0, 1000)
    .map((x) => x.row);
  const got: IndexTableRow[] = [];
  for (let page = 1; page <= 10; page++) {
    const rows = index.search({ ...q, page, show: 100 });
    got.push(...rows);
    if (rows.length < 100) break;
  }
  assert.deepEqual(got, want, label);
  return want.length;
}

describe('search text', () => {
  test('matches case-insensitively and partially across every field, at any length', () => {
    const hits = [
      'mimikatz',
      'MIMIKATZ',
      'invoke-mimi',
      'ßvc',
      'zoë',
      'ÄÖÜ',
      'äöü',
      's-1-5-18',
      'sysmon/operational',
      'service install',
      'ünïcode rule',
      '2024-03-01 00:0',
      '4688',
      'account logged on',
      'service was installed in the system: psexesvc',
      'a',
      'ß',
      '%t',
      '1=1',
      '"quoted"',
      'near(x',
      '*',
      '',
    ].map((text) => agree({ search: text }));
    assert.ok(
      hits.every((n) => n > 0),
      `every text above occurs in the data: ${hits}`,
    );
    assert.equal(agree({ search: 'no such text anywhere' }), 0);
    assert.equal(agree({ search: 'zq' }), 0);
  });

  test('never matches across two values (fields are joined by a separator no query holds)', () => {
    const x = all[0]!;
    const across = `${x.row[0][3].slice(-3)}${x.row[0][4].slice(0, 3)}`.toLowerCase(); // provider end + computer start
    agree({ search: across });
    assert.equal(checkSearchRequest({ search: 'a\u001fb', browse_events: true }).ok, false);
  });
});

describe('filters: every operator on every field agrees with the naive filter', () => {
  const FIELDS = [
    'event_id',
    'record_id',
    'timestamp',
    'provider',
    'computer',
    'sigma_matches',
    'details.CommandLine',
    'details.TargetUserName',
    'details.Path',
    'details.Data[0]',
    'details.NoSuchField',
  ];
  for (const field of FIELDS) {
    test(field, () => {
      const present = all.flatMap((x) => values(x, field));
      const r = prng(field.length * 7919);
      const sample = () => present[Math.floor(r() * present.length)] ?? 'x';
      const candidates = [
        sample(),
        sample().toUpperCase(),
        sample().slice(0, 2),
        sample().slice(0, 5),
        sample().slice(-4),
        sample().slice(1, 7),
        '',
        'zz-no-such-value',
        "' OR 1=1 --",
      ];
      let matched = 0;
      for (const operator of FILTER_OPERATORS)
        for (const value of candidates) matched += agree({ filter: [{ field, operator, value }] });
      assert.ok(present.length === 0 || matched > 0, 'some filters match');
    });
  }

  test('filters combine with each other, with text and with a time window', () => {
    const t0 = Date.UTC(2024, 2, 1, 0, 1);
    const cases: Body[] = [
      {
        search: 'exe',
        filter: [
          { field: 'provider', operator: 'contains', value: 'security' },
          { field: 'details.CommandLine', operator: 'does_not_contain', value: 'whoami' },
        ],
      },
      {
        search: 'a',
        filter: [
          { field: 'event_id', operator: 'equals', value: '4624' },
          { field: 'computer', operator: 'not_equals', value: 'srv-db-02' },
        ],
        start_time: t0,
        end_time: t0 + 120_000,
      },
      { filter: [{ field: 'sigma_matches', operator: 'starts_with', value: 'mimikatz' }], start_time: t0 },
      {
        filter: [{ field: 'sigma_matches', operator: 'not_equals', value: 'service install' }],
        end_time: t0,
      },
      { filter: [{ field: 'event_id', operator: 'equals', value: '1' }] },
      {
        search: 'powershell',
        filter: [{ field: 'timestamp', operator: 'starts_with', value: '2024-03-01 00:02' }],
      },
    ];
    for (const body of cases) agree(body);
  });
});

describe('time window and paging', () => {
  test('the window is inclusive in Unix ms and leaves out events without a time', () => {
    const times = all.map((x) => x.e.timestamp).filter(Number.isFinite);
    const mid = times[Math.floor(times.length / 2)]!;
    for (const [start, end] of [
      [mid, mid],
      [mid, undefined],
      [undefined, mid],
      [0, Date.UTC(2030, 0, 1)],
      [Date.UTC(2030, 0, 1), undefined],
      [mid - 1000, mid + 1000],
    ])
      agree({ start_time: start, end_time: end });
    assert.equal(index.search(query({})).length, 10, 'show defaults to 10');
    assert.equal(index.search(query({ show: 100 }))[0]?.[0][2], '-', 'events without a time come first');
  });

  test('page 10 of 100 is events 901 to 1,000 in (timestamp, record id) order; past the end is empty', () => {
    const want = naive(all, { ...query({}), fields: [] });
    assert.equal(want.length, 1210);
    const page10 = index.search(query({ page: 10, show: 100 }));
    assert.deepEqual(
      page10,
      want.slice(900, 1000).map((x) => x.row),
    );
    assert.deepEqual(index.search(query({ page: 1, show: 1 })), [want[0]!.row]);
    const few = naive(all, { ...query({ search: 'psexesvc' }), fields: [] }).length;
    assert.ok(few > 0 && few < 100);
    assert.equal(index.search(query({ search: 'psexesvc', page: 1, show: 100 })).length, few);
    assert.deepEqual(index.search(query({ search: 'psexesvc', page: 2, show: 100 })), []);
  });

  test('the answer is one Event Table of category General with the seven columns', () => {
    const response = eventTable(index, query({ search: 'mimikatz', show: 3 }));
    assert.equal(response.insights.length, 1);
    const t = response.insights[0]!.IndexTable;
    assert.equal(t.title, 'Event Table');
    assert.equal(t.category, 'General');
    assert.deepEqual(t.columns, [
      'Event ID',
      'Record ID',
      'Timestamp',
      'Provider',
      'Computer',
      'Message',
      'Event Data',
    ]);
    assert.equal(t.data.length, 3);
    for (const [cells, data] of t.data) {
      assert.equal(cells.length, 6);
      assert.match(cells[2], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$|^-$/);
      for (const v of Object.values(data)) assert.equal(typeof v, 'string');
    }
  });
});

test('a plain index file (completed on this thread) answers exactly as an encrypted one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tae-search-'));
  try {
    await build({ path: join(dir, 'index.sqlite'), key: null }, false);
    assert.deepEqual(readdirSync(dir), ['index.sqlite'], 'the staging file is gone');
    const fileDb = openSqlite(join(dir, 'index.sqlite'));
    try {
      const onDisk = EventIndex.of(fileDb);
      for (const body of [{ search: 'mimikatz', show: 100 }, { search: 'a', page: 3, show: 50 }, {}])
        assert.deepEqual(onDisk.search(query(body)), index.search(query(body)));
    } finally {
      fileDb.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('rebuilt analysis', () => {
  function direct(start: number | null, end: number | null) {
    const analyzer = createAnalyzer({ sigma: true, describe: describeEvent });
    // The rebuild announces every file first (in the order the job met them), so one whose
    // events all fall outside the window is still listed.
    const files = new Set([...arrivals()].map((a) => a.duplicateIn ?? a.x.file));
    for (const file of files) analyzer.addDiagnostics([], { file });
    const inWindow = (t: number) => (start === null || t >= start) && (end === null || t <= end);
    const windowed = start !== null || end !== null;
    let duplicates = 0;
    for (const { x, duplicateIn } of arrivals()) {
      if (windowed && !inWindow(x.e.timestamp)) continue;
      if (!analyzer.add(x.e, { file: duplicateIn ?? x.file })) {
        duplicates++;
        continue;
      }
      for (const rule of x.rules)
        analyzer.addSigmaMatch({
          rule: { ...rule, tags: [...(rule.tags ?? [])] },
          recordId: x.e.recordId,
          timestamp: x.e.timestamp,
          channel: x.e.channel,
          computer: x.e.computer,
          file: duplicateIn ?? x.file,
        });
    }
    const corr = Date.UTC(2024, 2, 1, 0, 3);
    if (inWindow(corr)) analyzer.addSigmaMatch({ rule: RULES[0]!, recordId: 0, timestamp: corr });
    assert.ok(duplicates > 0 || windowed, 'the duplicates are replayed as duplicates');
    return flattenResults(analyzer.finish());
  }

  test('over all events it equals the analyzer fed the same events, duplicates, matches and files', () => {
    assert.deepEqual(
      rebuildInsights(index, { start: null, end: null, describe: describeEvent }),
      direct(null, null),
    );
  });

  test('over a window it equals the analyzer fed only that window', () => {
    const start = Date.UTC(2024, 2, 1, 0, 2);
    const end = Date.UTC(2024, 2, 1, 0, 4);
    const rebuilt = rebuildInsights(index, { start, end, describe: describeEvent });
    assert.deepEqual(rebuilt, direct(start, end));
    assert.notDeepEqual(rebuilt, direct(null, null));
  });
});
