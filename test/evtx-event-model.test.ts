/** The flat event model agrees with the evtx crate's JSON (the oracle) on every corpus record. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type EvtxEvent, parseEvtx } from '../src/index.js';
import { corpusIndex, expectedJsonl, SKIP_NO_CORPUS } from './helpers/corpus.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const text = (v: Json | undefined): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object' && !Array.isArray(v)) return text(v['#text']);
  return String(v);
};
const attr = (v: Json | undefined, name: string): string | null =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? text((v['#attributes'] as Obj | undefined)?.[name])
    : null;

/** What the oracle says the flat event must hold (numbers beyond 2^53 are left out: JSON.parse rounds them). */
function fromOracle(line: string) {
  const ev = (JSON.parse(line) as Obj).Event as Obj;
  const sys = ev.System as Obj;
  const data: Record<string, string> = {};
  const ed = ev.EventData;
  if (ed && typeof ed === 'object' && !Array.isArray(ed)) {
    for (const [k, v] of Object.entries(ed)) {
      if (k === '#attributes' || k === 'Data' || k === 'Binary' || k === '#text') continue;
      if (typeof v === 'number' && !Number.isSafeInteger(v)) continue;
      if (v === null || typeof v !== 'object') data[k] = v === null ? '' : String(v);
    }
  }
  return {
    eventId: Number(text(sys.EventID)),
    recordId: text(sys.EventRecordID) === null ? NO_RECORD_ID : Number(text(sys.EventRecordID)),
    channel: text(sys.Channel) ?? '',
    computer: text(sys.Computer) ?? '',
    provider: attr(sys.Provider, 'Name') ?? '',
    time: attr(sys.TimeCreated, 'SystemTime'),
    data,
  };
}

/** Events without an EventRecordID (ours then carry the record header's id). */
const NO_RECORD_ID = -1;
const HUNDRED_NS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/;

function compare(e: EvtxEvent, o: ReturnType<typeof fromOracle>): string[] {
  const bad: string[] = [];
  if (e.eventId !== o.eventId) bad.push(`eventId ${e.eventId} ≠ ${o.eventId}`);
  if (o.recordId !== NO_RECORD_ID && e.recordId !== o.recordId)
    bad.push(`recordId ${e.recordId} ≠ ${o.recordId}`);
  if (e.channel !== o.channel) bad.push(`channel ${e.channel} ≠ ${o.channel}`);
  if (e.computer !== o.computer) bad.push(`computer`);
  if (e.provider !== o.provider) bad.push(`provider ${e.provider} ≠ ${o.provider}`);
  if (o.time !== null && !o.time.startsWith(e.timestampText.slice(0, 26)))
    bad.push(`time ${e.timestampText} ≠ ${o.time}`);
  for (const [k, v] of Object.entries(o.data)) {
    const raw = e.data[k];
    // Our FILETIME values keep 100 ns; the oracle writes microseconds.
    const ours = typeof raw === 'string' && HUNDRED_NS.test(raw) ? `${raw.slice(0, -2)}Z` : raw;
    // A repeated Data name (4648's LogonGuid) is an array for us; JSON.parse keeps the oracle's last.
    if (Array.isArray(ours) && ours.length > 1 && ours.at(-1) === v) continue;
    if ((Array.isArray(ours) ? ours.join(',') : ours) !== v)
      bad.push(`data.${k} ${JSON.stringify(ours)} ≠ ${JSON.stringify(v)}`);
  }
  return bad;
}

test('flat events match the oracle JSON on system fields, time and EventData for every corpus record', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const problems: string[] = [];
  let compared = 0;
  for (const f of corpusIndex()) {
    const expected = expectedJsonl(f.rel);
    const byRecordId = new Map<number, ReturnType<typeof fromOracle>[]>();
    for (const line of expected) {
      const o = fromOracle(line);
      byRecordId.set(o.recordId, [...(byRecordId.get(o.recordId) ?? []), o]);
    }
    for await (const r of parseEvtx(f.path, { outputs: ['event'] })) {
      const e = r.event!;
      const candidates = byRecordId.get(e.recordId) ?? byRecordId.get(NO_RECORD_ID) ?? [];
      if (candidates.length === 0) {
        problems.push(`${f.rel}: record ${e.recordId} is not in the oracle`);
        continue;
      }
      compared++;
      const results = candidates.map((o) => compare(e, o));
      if (!results.some((x) => x.length === 0))
        problems.push(`${f.rel} #${e.recordId}: ${results[0]!.join('; ')}`);
    }
  }
  assert.deepEqual(problems.slice(0, 20), []);
  assert.equal(compared, 43058);
});
