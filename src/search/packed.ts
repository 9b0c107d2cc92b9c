/**
 * Rows packed by decode workers (rows/pack.ts), read where they are staged: bound as bytes, or
 * given back as the event (a duplicate is kept as the event's JSON).
 */
import type { EvtxEvent } from '../evtx/index.js';
import { fold, NUMS, type PackedRows, SEPARATOR, STRIDE } from '../rows/index.js';
import { restoreEvent, type StoredEvent } from './restore.js';

/** Text `k` (a TEXTS position) of row `at`: its bytes, or null. */
function textBytes(p: PackedRows, at: number, k: number): Buffer | null {
  const start = p.nums[at * STRIDE + NUMS + 2 * k]!;
  if (start < 0) return null;
  const end = p.nums[at * STRIDE + NUMS + 2 * k + 1]!;
  return Buffer.from(p.bytes.buffer, p.bytes.byteOffset + start, end - start);
}

const num = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * The `staged` columns after `seq` (schema.ts) of row `at`, texts as UTF-8 bytes: the values
 * `indexRow(e, file, ruleNos, titles)` gives, byte for byte once stored as text.
 */
export function stagedValues(
  p: PackedRows,
  at: number,
  file: number,
  ruleNos: readonly number[],
  titles: readonly string[],
): unknown[] {
  const n = at * STRIDE;
  const t = (k: number) => textBytes(p, at, k);
  let body = t(9)!;
  if (titles.length > 0)
    body = Buffer.concat([body, Buffer.from(titles.map((x) => SEPARATOR + fold(x)).join(''), 'utf8')]);
  return [
    num(p.nums[n]!),
    file,
    t(0),
    p.nums[n + 1]!,
    t(1),
    t(2),
    t(3),
    t(4),
    t(5),
    ruleNos.length === 0 ? null : JSON.stringify(ruleNos),
    t(6),
    t(7),
    t(8),
    num(p.nums[n + 2]!),
    body,
  ];
}

/** The event row `at` was made from (for a duplicate, which is kept as the event's JSON). */
export function packedEvent(p: PackedRows, at: number): EvtxEvent {
  const n = at * STRIDE;
  const s = (k: number) => textBytes(p, at, k)?.toString('utf8') ?? null;
  const stored: StoredEvent = {
    ts: num(p.nums[n]!),
    eventId: s(0)!,
    recordId: p.nums[n + 1]!,
    provider: s(2)!,
    computer: s(3)!,
    data: s(5)!,
    channel: s(6)!,
    userSid: s(7),
    extra: s(8)!,
  };
  return restoreEvent(stored);
}
