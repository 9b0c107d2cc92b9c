/**
 * An event index of format 1, as builds before format 2 left it (the layout and the rows of
 * src/search at that time, written directly): every event as keyed JSON in `event`, its folded
 * text in `bodies`, trigram blocks over `bodies`. Tests open it with today's EventIndex.
 */
import { openSqlite } from '../../native/sqlite.js';
import { type DescribeEvent, indexTableRow, type SigmaMatchInput } from '../../src/analysis/index.js';
import type { EvtxEvent } from '../../src/evtx/index.js';
import { joinSearchable } from '../../src/rows/index.js';

type Rule = SigmaMatchInput['rule'];

/** What the job saw, in arrival order: new events (with their rules) and duplicates. */
export type Arrival =
  | { readonly kind: 'event'; readonly e: EvtxEvent; readonly file: string; readonly rules: readonly Rule[] }
  | { readonly kind: 'duplicate'; readonly e: EvtxEvent; readonly file: string };

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE files (no INTEGER PRIMARY KEY, name TEXT NOT NULL, diagnostics TEXT NOT NULL) STRICT;
  CREATE TABLE rules (no INTEGER PRIMARY KEY, title TEXT NOT NULL, rule TEXT NOT NULL) STRICT;
  CREATE TABLE correlations (rule INTEGER NOT NULL, ts INTEGER NOT NULL) STRICT;
  CREATE TABLE duplicates (seq INTEGER PRIMARY KEY, ts INTEGER, file INTEGER NOT NULL, event TEXT NOT NULL) STRICT;
  CREATE TABLE events (
    n INTEGER PRIMARY KEY, ts INTEGER, seq INTEGER NOT NULL, file INTEGER NOT NULL,
    event_id TEXT NOT NULL, record_id INTEGER NOT NULL, time TEXT NOT NULL, provider TEXT NOT NULL,
    computer TEXT NOT NULL, message TEXT NOT NULL, data TEXT NOT NULL, sigma TEXT, event TEXT NOT NULL
  ) STRICT;
  CREATE TABLE bodies (n INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT;
  CREATE INDEX duplicates_ts ON duplicates(ts);
  CREATE INDEX events_ts ON events(ts);
  CREATE INDEX events_event_id ON events(event_id);
  CREATE INDEX events_seq ON events(seq);
`;

/** The rule as format-1 builds stored it (their `ruleOf`). */
const ruleJson = (r: Rule) =>
  JSON.stringify({
    title: r.title,
    ...(r.id ? { id: r.id } : {}),
    ...(r.level ? { level: r.level } : {}),
    ...(r.status ? { status: r.status } : {}),
    tags: [...(r.tags ?? [])],
  });

export function writeFormat1Index(
  path: string,
  arrivals: readonly Arrival[],
  o: { sigma: boolean; describe?: DescribeEvent; blockRows: number; correlations?: [Rule, number][] },
): void {
  const files = new Map<string, number>();
  const rules = new Map<string, { no: number; title: string }>();
  const fileNo = (name: string) => files.get(name) ?? files.set(name, files.size + 1).get(name)!;
  const ruleNo = (r: Rule) => {
    const json = ruleJson(r);
    if (!rules.has(json)) rules.set(json, { no: rules.size + 1, title: r.title });
    return rules.get(json)!;
  };
  const events: { seq: number; ts: number | null; cells: unknown[]; body: string }[] = [];
  const duplicates: unknown[][] = [];
  for (const [i, a] of arrivals.entries()) {
    const seq = i + 1;
    const ts = Number.isFinite(a.e.timestamp) ? a.e.timestamp : null;
    if (a.kind === 'duplicate') {
      duplicates.push([seq, ts, fileNo(a.file), JSON.stringify(a.e)]);
      continue;
    }
    const row = indexTableRow(a.e, o.describe);
    const nos: number[] = [];
    const titles: string[] = [];
    for (const r of a.rules) {
      const { no, title } = ruleNo(r);
      if (nos.includes(no)) continue;
      nos.push(no);
      titles.push(title);
    }
    const [c, data] = row;
    const sigma = nos.length === 0 ? null : JSON.stringify(nos);
    const cells = [fileNo(a.file), c[0], a.e.recordId, c[2], c[3], c[4], c[5], JSON.stringify(data), sigma];
    events.push({
      seq,
      ts,
      cells: [...cells, JSON.stringify(a.e)],
      body: joinSearchable(row[0], Object.values(row[1]), a.e.channel, a.e.userSid, titles),
    });
  }
  // Result order: timestamp (none first), record id, arrival.
  events.sort(
    (a, b) =>
      (a.ts ?? -Infinity) - (b.ts ?? -Infinity) ||
      (a.cells[2] as number) - (b.cells[2] as number) ||
      a.seq - b.seq,
  );
  const db = openSqlite(path);
  try {
    db.exec(SCHEMA);
    db.transaction(() => {
      const ev = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const body = db.prepare('INSERT INTO bodies VALUES (?, ?)');
      for (const [i, e] of events.entries()) {
        ev.run(i + 1, e.ts, e.seq, ...e.cells);
        body.run(i + 1, e.body);
      }
      const dup = db.prepare('INSERT INTO duplicates VALUES (?, ?, ?, ?)');
      for (const d of duplicates) dup.run(d);
      for (const [name, no] of files) db.prepare('INSERT INTO files VALUES (?, ?, ?)').run(no, name, '[]');
      for (const [json, r] of rules)
        db.prepare('INSERT INTO rules VALUES (?, ?, ?)').run(r.no, r.title, json);
      for (const [r, ts] of o.correlations ?? [])
        db.prepare('INSERT INTO correlations VALUES (?, ?)').run(ruleNo(r).no, ts);
    })();
    const blocks = Math.ceil(events.length / o.blockRows);
    for (let k = 0; k < blocks; k++) {
      const t = `events_text_${k}`;
      db.exec(`
        CREATE VIRTUAL TABLE ${t} USING fts5(body, content='', tokenize='trigram', detail='none', columnsize=0);
        INSERT INTO ${t}(rowid, body)
          SELECT n, body FROM bodies WHERE n BETWEEN ${k * o.blockRows + 1} AND ${(k + 1) * o.blockRows};`);
    }
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    for (const [k, v] of [
      ['format', 1],
      ['sigma', o.sigma ? 1 : 0],
      ['events', events.length],
      ['text_blocks', blocks],
      ['text_block_rows', o.blockRows],
    ] as const)
      meta.run(k, String(v));
  } finally {
    db.close();
  }
}
