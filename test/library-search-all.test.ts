/**
 * `index.matches(request)`: every match of a search in the order of its pages, past the
 * endpoint's 10 pages of 100, in batches; and `buildIndex({ tempDir })`, which puts the
 * temporary index's directory where the caller says (and removes it on close).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type EventDescription, writeEvtx } from '../fixtures/evtx-writer/index.js';
import type { IndexTableRow } from '../src/insights/index.js';
import { buildIndex, type EvtxIndex } from '../src/library/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-library-search-all-'));
const owned = join(dir, 'owned');
mkdirSync(owned);
const MANY = 2300;
const events: EventDescription[] = Array.from({ length: MANY }, (_, i) => ({
  provider: 'Microsoft-Windows-Sysmon',
  channel: 'Microsoft-Windows-Sysmon/Operational',
  computer: 'WS-01',
  time: new Date(Date.UTC(2026, 2, 1, 10) + i * 1000).toISOString(),
  eventId: i % 2 === 0 ? 1 : 3,
  eventData: { Image: i % 3 === 0 ? 'C:\\Windows\\System32\\cmd.exe' : `C:\\Tools\\t${i}.exe` },
}));
writeFileSync(join(dir, 'many.evtx'), writeEvtx(events));
let index: EvtxIndex;

before(async () => {
  index = await buildIndex({ files: [join(dir, 'many.evtx')], tempDir: owned });
});
after(() => index.close());

const ids = (rows: readonly IndexTableRow[]) => rows.map(([cells]) => Number(cells[1]));

test('matches() yields every match in page order, in batches of at most 1,000', async () => {
  const requests = [
    { search: '' },
    { search: 'cmd.exe' },
    { search: '', filter: [{ field: 'event_id', operator: 'equals', value: '3' }] },
    { search: 'ex', filter: [{ field: 'details.Image', operator: 'does_not_contain', value: 'cmd' }] },
    { search: 'cmd', start_time: Date.UTC(2026, 2, 1, 10, 5), end_time: Date.UTC(2026, 2, 1, 10, 25) },
  ] as const;
  for (const request of requests) {
    const batches = [...index.matches(request)];
    assert.ok(batches.every((b) => b.length > 0 && b.length <= 1000));
    const all = batches.flat();
    const pages: IndexTableRow[] = [];
    for (let page = 1; page <= 10; page++) {
      const r = await index.search({ ...request, page, show: 100, browse_events: true });
      pages.push(...r.insights[0]!.IndexTable.data);
    }
    assert.deepEqual(all.slice(0, 1000), pages, JSON.stringify(request));
    const expected = events.flatMap((e, i) => {
      const t = Date.parse(String(e.time));
      const image = String(e.eventData?.Image);
      const ok =
        (request.search === '' || `${image} ${e.eventId}`.toLowerCase().includes(request.search)) &&
        (!('filter' in request) ||
          (request.filter[0].field === 'event_id' ? e.eventId === 3 : !image.includes('cmd'))) &&
        (!('start_time' in request) || (t >= request.start_time && t <= request.end_time));
      return ok ? [i + 1] : [];
    });
    assert.deepEqual(ids(all), expected, JSON.stringify(request));
  }
  assert.equal([...index.matches({ search: '' })].flat().length, MANY);
});

test('a temporary index lives in a directory made inside tempDir, removed on close', async () => {
  assert.deepEqual(
    readdirSync(owned).map((n) => n.replace(/[^-]+$/, '')),
    [`tae-search-index-${process.pid}-`],
  );
  const second = await buildIndex({ files: [join(dir, 'many.evtx')], tempDir: owned });
  assert.equal(readdirSync(owned).length, 2);
  second.close();
  assert.equal(readdirSync(owned).length, 1);
});
