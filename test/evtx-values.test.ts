/** Value formatting, checked against independent computations (BigInt, Date, hand-built bytes). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { filetimeAt, systemtimeAt, toMicrosecondText } from '../src/evtx/time.js';
import { decodeValue, floatText, guidText, sidText } from '../src/evtx/values.js';

const le64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};

/** Reference FILETIME formatting with BigInt arithmetic only. */
function referenceFiletime(ticks: bigint): string {
  const unixTicks = ticks - 116444736000000000n;
  const seconds = unixTicks / 10_000_000n;
  const rest = unixTicks % 10_000_000n;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${iso}.${rest.toString().padStart(7, '0')}Z`;
}

test('FILETIME keeps all seven fractional digits across the 2^53 boundary', () => {
  const samples = [
    131124451716816404n, // 2016-07-08, above 2^53
    133_000_000_000_000_001n,
    2n ** 57n - 1n,
    116444736000000000n, // the Unix epoch
    125911584000000000n, // 2000-01-01
  ];
  for (const ticks of samples)
    assert.equal(filetimeAt(le64(ticks), 0)?.text, referenceFiletime(ticks), String(ticks));
  const ticks = 131124451716816404n;
  assert.equal(filetimeAt(le64(ticks), 0)?.ms, Number((ticks - 116444736000000000n) / 10_000n));
});

test('FILETIME beyond year 9999 is not representable and yields null', () => {
  assert.equal(filetimeAt(le64(2n ** 63n), 0), null);
});

test('SYSTEMTIME is UTC whatever the process time zone', () => {
  const script = `
    import { systemtimeAt } from './src/evtx/time.ts';
    const b = new Uint8Array(16); const v = new DataView(b.buffer);
    [2019, 3, 2, 19, 23, 34, 38, 218].forEach((x, i) => v.setUint16(i * 2, x, true));
    console.log(systemtimeAt(b, 0).text);`;
  for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata']) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TZ: tz },
      encoding: 'utf8',
    });
    assert.equal(r.stdout.trim(), '2019-03-19T23:34:38.2180000Z', `TZ=${tz}: ${r.stderr}`);
  }
});

test('invalid SYSTEMTIME fields yield null instead of a wrapped date', () => {
  const b = new Uint8Array(16);
  const v = new DataView(b.buffer);
  for (const [i, x] of [2019, 2, 0, 30, 0, 0, 0, 0].entries()) v.setUint16(i * 2, x, true); // February 30th
  assert.equal(systemtimeAt(b, 0), null);
});

test('the crate-compatible JSON time keeps microseconds', () => {
  assert.equal(toMicrosecondText('2016-07-08T18:12:51.6816404Z'), '2016-07-08T18:12:51.681640Z');
});

test('a GUID is upper-case with its first three groups little-endian', () => {
  const b = Uint8Array.from([
    0x25, 0x96, 0x84, 0x54, 0x78, 0x54, 0x94, 0x49, 0xa5, 0xba, 0x3e, 0x3b, 0x03, 0x28, 0xc3, 0x0d,
  ]);
  assert.equal(guidText(b, 0), '54849625-5478-4994-A5BA-3E3B0328C30D');
});

test('a SID has its 48-bit big-endian authority and little-endian sub-authorities', () => {
  const b = Uint8Array.from([1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 0x02, 0, 0]);
  assert.equal(sidText(b, 0, b.length), 'S-1-5-32-544');
  assert.throws(() => sidText(b, 0, 4));
});

test('SizeT renders as hex of its width; HexInt64 above 2^53 stays exact', () => {
  assert.equal(decodeValue(Uint8Array.from([4, 0, 0, 0]), 0, 4, 0x10).text, '0x4');
  assert.equal(decodeValue(le64(0x8020000000000000n), 0, 8, 0x15).text, '0x8020000000000000');
  assert.equal(decodeValue(le64(2n ** 64n - 1n), 0, 8, 0x0a).text, '18446744073709551615');
  assert.equal(decodeValue(le64(2n ** 64n - 1n), 0, 8, 0x09).text, '-1');
});

test('a string array keeps its items, and a UTF-16 string stops at its first NUL', () => {
  const utf16 = (s: string) => Uint8Array.from(Buffer.from(s, 'utf16le'));
  const arr = decodeValue(utf16('a\0bc\0\0'), 0, 12, 0x81);
  assert.deepEqual(arr.items, ['a', 'bc', '']);
  assert.equal(decodeValue(utf16('cmd.exe \0junk'), 0, 26, 0x01).text, 'cmd.exe ');
});

test('a UTF-16 string of any length keeps a leading BOM and turns each lone surrogate into U+FFFD', () => {
  const units = (codes: number[]) => Uint8Array.from(Buffer.from(Uint16Array.from(codes).buffer));
  // Short strings are decoded in JavaScript, longer ones natively: both must agree.
  for (const length of [3, 7, 8, 30, 300]) {
    const body = Array.from({ length }, (_, i) => 0x61 + (i % 26));
    const text = String.fromCharCode(...body);
    const bom = decodeValue(units([0xfeff, ...body]), 0, 2 * (length + 1), 0x01).text;
    assert.equal(bom, `\ufeff${text}`, `BOM, ${length} units`);
    const lone = decodeValue(units([...body, 0xd800, 0x62, 0xdc00]), 0, 2 * (length + 3), 0x01).text;
    assert.equal(lone, `${text}\ufffdb\ufffd`, `lone surrogates, ${length} units`);
    const pair = decodeValue(units([0xd83d, 0xde00, ...body]), 0, 2 * (length + 2), 0x01).text;
    assert.equal(pair, `\u{1f600}${text}`, `surrogate pair, ${length} units`);
  }
});

test('booleans are four bytes and any non-zero value is true', () => {
  assert.equal(decodeValue(Uint8Array.from([0, 0, 1, 0]), 0, 4, 0x0d).text, 'true');
  assert.equal(decodeValue(Uint8Array.from([0, 0, 0, 0]), 0, 4, 0x0d).text, 'false');
});

test('floats use the shortest round-trip text', () => {
  assert.equal(floatText(3, false), '3.0');
  assert.equal(floatText(0.1, false), '0.1');
  assert.equal(floatText(Math.fround(3199.234), true), '3199.234');
  assert.equal(floatText(1e21, false), '1e+21');
});

test('a value too short for its type is an error, never an over-read', () => {
  assert.throws(() => decodeValue(Uint8Array.from([1, 2]), 0, 2, 0x08), /needs 4 bytes/);
});
