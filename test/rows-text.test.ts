/**
 * The parts of an index row made per event (src/rows/row.ts): TimeCreated's text reduced to its
 * sub-millisecond digits only when the rest is the timestamp's own ISO text, and the searchable
 * text folded once over the joined values exactly as value by value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prng } from '../fixtures/prng.js';
import { fold, indexRow, joinSearchable, SEPARATOR } from '../src/rows/index.js';
import { securityEvent } from './helpers/security-event.js';

/** The reduction as ISO text comparison makes it, for any timestamp. */
function expectedTime(ts: number, text: string): string | number {
  if (text.length !== 28 || text[27] !== 'Z') return text;
  const date = new Date(ts);
  const digits = text.slice(23, 27);
  if (Number.isNaN(date.getTime()) || !/^\d{4}$/.test(digits)) return text;
  return date.toISOString().slice(0, 23) === text.slice(0, 23) ? Number(digits) : text;
}

const timeCell = (ts: number, text: string) =>
  (
    JSON.parse(indexRow(securityEvent({ timestamp: ts, timestampText: text }), 1, [], [])[12]) as unknown[]
  )[0];

test("TimeCreated's text is reduced to its last four digits exactly when the rest is the timestamp's", () => {
  const random = prng(15);
  const base = Date.parse('2024-03-12T10:00:00Z');
  let reduced = 0;
  for (let i = 0; i < 5000; i++) {
    // Runs within one minute, jumps, times before 1970 and past 9999, and texts off by one digit.
    const ts =
      i % 97 === 0
        ? -62_000_000_000_000 - Math.floor(random() * 1e9)
        : i % 89 === 0
          ? 253_402_300_800_000 + Math.floor(random() * 1e9)
          : base + Math.floor(random() * (i % 3 === 0 ? 1e10 : 60_000));
    let text = `${new Date(ts).toISOString().slice(0, 23)}${String(Math.floor(random() * 1e4)).padStart(4, '0')}Z`;
    if (i % 5 === 0) {
      const at = Math.floor(random() * 23);
      const c = text.charCodeAt(at);
      if (c >= 48 && c <= 57) text = text.slice(0, at) + String((c - 47) % 10) + text.slice(at + 1);
    }
    const want = expectedTime(ts, text);
    if (typeof want === 'number') reduced++;
    assert.equal(timeCell(ts, text), want, `${ts} ${text}`);
  }
  assert.ok(reduced > 3000 && reduced < 5000, `${reduced} reduced`);
  assert.equal(
    timeCell(1.5, '1970-01-01T00:00:00.0015000Z'),
    expectedTime(1.5, '1970-01-01T00:00:00.0015000Z'),
  );
});

test('the searchable text folds the joined values as it folds each value alone', () => {
  const values = ['ΟΔΟΣ', 'Σ', 'ΣΑΣ', 'İstanbul', 'KELVIN \u212a', 'ǅ', 'ß', '', 'ΑΣ\u0301'];
  const cells = ['4625', '7', '2024-03-12 10:00:00', 'ΠΡΟΣ', 'HOST-Σ', 'ΜΗΝΥΜΑ ΤΕΛΟΣ'];
  const titles = ['ΚΑΝΟΝΑΣ', 'Rule Σ'];
  const each = [...cells, ...values, 'ΚΑΝΑΛΙΣ', 'S-1-Σ', ...titles].map(fold).join(SEPARATOR);
  assert.equal(joinSearchable(cells, values, 'ΚΑΝΑΛΙΣ', 'S-1-Σ', titles), each);
  assert.equal(
    joinSearchable(cells, [], 'ΚΑΝΑΛΙΣ', null, []),
    [...cells, 'ΚΑΝΑΛΙΣ'].map(fold).join(SEPARATOR),
  );
});
