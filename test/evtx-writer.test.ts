/** The EVTX fixture writer on its own: file/chunk/record framing, checksums, templates, determinism. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  createEvtxStreamWriter,
  type EventDescription,
  isoToFiletime,
  resequenceChunk,
  writeEvtx,
} from '../fixtures/evtx-writer/index.js';

const FILE_HEADER = 4096;
const CHUNK = 65536;

/** Bitwise CRC-32 (IEEE), written here so the checks do not share the writer's code. */
function crc(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) {
    for (const byte of p) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    }
  }
  return (c ^ 0xffffffff) >>> 0;
}

const dv = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));

function security(i: number, extra: Partial<EventDescription> = {}): EventDescription {
  return {
    time: isoToFiletime('2024-03-01T10:00:00Z') + BigInt(i) * 10_000_000n,
    provider: 'Microsoft-Windows-Security-Auditing',
    providerGuid: '54849625-5478-4994-a5ba-3e3b0328c30d',
    eventId: 4625,
    level: 0,
    task: 12544,
    keywords: 0x8010000000000000n,
    channel: 'Security',
    computer: 'WS-FINANCE-07',
    processId: 668,
    threadId: 1000 + (i % 7),
    eventData: {
      TargetUserName: `user${i % 13}`,
      LogonType: { type: 'uint32', value: 3 },
      IpAddress: '10.0.13.37',
      Status: { type: 'hex32', value: 0xc000006d },
      SubjectUserSid: { type: 'sid', value: 'S-1-5-18' },
    },
    ...extra,
  };
}
const many = (n: number, extra?: Partial<EventDescription>) =>
  Array.from({ length: n }, (_, i) => security(i, extra));

interface Rec {
  chunk: number;
  offset: number;
  size: number;
  id: bigint;
  eventRecordId: bigint | undefined;
  inlineTemplate: boolean;
}

/** Checks every header, checksum and record frame; returns the records. */
function inspect(file: Uint8Array, opts: { noCrc?: boolean } = {}): Rec[] {
  const v = dv(file);
  assert.equal(ascii(file, 0, 8), 'ElfFile\0');
  assert.equal(v.getUint32(0x7c, true), crc(file.subarray(0, 120)), 'file header checksum');
  assert.equal(v.getUint32(0x20, true), 128);
  assert.equal(v.getUint16(0x26, true), 3);
  assert.equal(v.getUint16(0x28, true), 4096);
  const chunks = v.getUint16(0x2a, true);
  assert.equal(file.length, FILE_HEADER + chunks * CHUNK);
  assert.equal(v.getBigUint64(0x10, true), BigInt(chunks - 1));
  const recs: Rec[] = [];
  for (let c = 0; c < chunks; c++) {
    const ch = file.subarray(FILE_HEADER + c * CHUNK, FILE_HEADER + (c + 1) * CHUNK);
    const cv = dv(ch);
    assert.equal(ascii(ch, 0, 8), 'ElfChnk\0');
    const free = cv.getUint32(0x30, true);
    const headerCrc = opts.noCrc ? 0 : crc(ch.subarray(0, 120), ch.subarray(128, 512));
    assert.equal(cv.getUint32(0x7c, true), headerCrc, `chunk ${c} header checksum`);
    assert.equal(
      cv.getUint32(0x34, true),
      opts.noCrc ? 0 : crc(ch.subarray(512, free)),
      `chunk ${c} data checksum`,
    );
    assert.ok(
      ch.subarray(free).every((b) => b === 0),
      'slack after the records is zeroed',
    );
    let at = 512;
    let last = 0;
    const ids: bigint[] = [];
    while (at < free) {
      assert.equal(cv.getUint32(at, true), 0x2a2a, 'record magic');
      const size = cv.getUint32(at + 4, true);
      assert.equal(size % 8, 0, 'records are 8-byte aligned');
      assert.equal(cv.getUint32(at + size - 4, true), size, 'size copy');
      const id = cv.getBigUint64(at + 8, true);
      recs.push({ chunk: c, offset: at, size, id, ...substitutions(ch, at) });
      ids.push(id);
      last = at;
      at += size;
    }
    assert.equal(at, free, 'records end at the free space offset');
    assert.equal(cv.getUint32(0x2c, true), last, 'last record offset');
    assert.equal(cv.getBigUint64(0x08, true), ids[0] ?? 0n);
    assert.equal(cv.getBigUint64(0x10, true), ids.at(-1) ?? 0n);
    assert.equal(cv.getBigUint64(0x18, true), ids[0] ?? 0n);
    assert.equal(cv.getBigUint64(0x20, true), ids.at(-1) ?? 0n);
  }
  const next = v.getBigUint64(0x18, true);
  if (recs.length) assert.equal(next, recs.at(-1)!.id + 1n, 'next record id');
  return recs;
}

/** Reads a record's template instance: whether its definition is inline, and value 10 (EventRecordID). */
function substitutions(
  ch: Uint8Array,
  at: number,
): { eventRecordId: bigint | undefined; inlineTemplate: boolean } {
  const v = dv(ch);
  let p = at + 24;
  assert.deepEqual([...ch.subarray(p, p + 4)], [0x0f, 1, 1, 0], 'fragment header');
  p += 4;
  assert.equal(ch[p], 0x0c, 'template instance');
  const def = v.getUint32(p + 6, true);
  p += 10;
  const inlineTemplate = def === p;
  if (inlineTemplate) {
    const size = v.getUint32(p + 20, true);
    assert.equal(ch[p + 24 + size - 1], 0x00, 'template ends with end of stream');
    p += 24 + size;
  } else {
    assert.ok(def < at, 'a referenced template was defined earlier in the chunk');
    assert.equal(ch[def - 10], 0x0c);
  }
  const count = v.getUint32(p, true);
  let value = p + 4 + count * 4;
  let eventRecordId: bigint | undefined;
  for (let i = 0; i < count; i++) {
    const size = v.getUint16(p + 4 + i * 4, true);
    if (i === 10 && ch[p + 6 + i * 4] === 0x0a) eventRecordId = v.getBigUint64(value, true);
    value += size;
  }
  assert.equal(ch[value], 0x00, 'end of stream after the values');
  return { eventRecordId, inlineTemplate };
}

test('file header, chunk headers, checksums and record frames are valid', () => {
  const file = writeEvtx(many(50));
  const recs = inspect(file);
  assert.equal(recs.length, 50);
  assert.equal(dv(file).getUint16(0x2a, true), 1);
  assert.equal(dv(file).getUint16(0x24, true), 1);
  assert.equal(dv(file).getUint32(0x78, true), 0);
});

test('a log without events has one empty chunk', () => {
  const file = writeEvtx([], { firstRecordId: 5 });
  assert.equal(inspect(file).length, 0);
  assert.equal(dv(file).getUint16(0x2a, true), 1);
  assert.equal(dv(file).getBigUint64(0x18, true), 5n);
});

test('record ids are sequential and equal to EventRecordID', () => {
  const recs = inspect(writeEvtx(many(300), { firstRecordId: 1000n }));
  recs.forEach((r, i) => {
    assert.equal(r.id, 1000n + BigInt(i));
    assert.equal(r.eventRecordId, r.id);
  });
});

test('many events span several chunks, each within chunkFill, ids continuing across chunks', () => {
  const file = writeEvtx(many(2000), { chunkFill: 32 * 1024 });
  const recs = inspect(file);
  const chunks = dv(file).getUint16(0x2a, true);
  assert.ok(chunks >= 5, `expected several chunks, got ${chunks}`);
  assert.equal(recs.length, 2000);
  for (let c = 0; c < chunks; c++) {
    assert.ok(dv(file).getUint32(FILE_HEADER + c * CHUNK + 0x30, true) <= 32 * 1024);
    // The template is defined again, once, in every chunk.
    assert.equal(recs.filter((r) => r.chunk === c && r.inlineTemplate).length, 1);
  }
});

test('templates are reused: same-shaped events cost far less than their template', () => {
  const one = inspect(writeEvtx(many(1)))[0]!;
  const recs = inspect(writeEvtx(many(1000)));
  const later = recs.filter((r) => !r.inlineTemplate);
  const avg = later.reduce((s, r) => s + r.size, 0) / later.length;
  assert.ok(avg * 3 < one.size, `reused record ${avg} B vs first ${one.size} B`);
  const total = recs.reduce((s, r) => s + r.size, 0);
  assert.ok(total < (1000 * one.size) / 3);
});

test('the same input gives the same bytes', () => {
  const a = writeEvtx(many(700));
  const b = writeEvtx(many(700));
  assert.deepEqual(a, b);
});

test('common string table: chained buckets of name hashes, covering every inline name', () => {
  const file = writeEvtx(many(40));
  const ch = file.subarray(FILE_HEADER, FILE_HEADER + CHUNK);
  const v = dv(ch);
  const names = new Set<string>();
  for (let b = 0; b < 64; b++) {
    for (let o = v.getUint32(0x80 + b * 4, true); o !== 0; o = v.getUint32(o, true)) {
      const n = v.getUint16(o + 6, true);
      const name = Buffer.from(ch.subarray(o + 8, o + 8 + n * 2)).toString('utf16le');
      let h = 0;
      for (const c of name) h = (Math.imul(h, 65599) + c.charCodeAt(0)) >>> 0;
      assert.equal(v.getUint16(o + 4, true), h & 0xffff, `hash of ${name}`);
      assert.equal((h & 0xffff) % 64, b, `bucket of ${name}`);
      names.add(name);
    }
  }
  for (const n of ['Event', 'xmlns', 'System', 'Provider', 'EventRecordID', 'Data', 'Name', 'UserID']) {
    assert.ok(names.has(n), n);
  }
  // Template pointers point just past a template instance token that points to itself.
  for (let b = 0; b < 32; b++) {
    for (let o = v.getUint32(0x180 + b * 4, true); o !== 0; o = v.getUint32(o, true)) {
      assert.equal(ch[o - 10], 0x0c);
      assert.equal(v.getUint32(o - 4, true), o);
    }
  }
});

test('flags: dirty, noCrc, minor version', () => {
  const file = writeEvtx(many(10), { dirty: true, noCrc: true, minorVersion: 2 });
  inspect(file, { noCrc: true });
  assert.equal(dv(file).getUint32(0x78, true), 0x1 | 0x4);
  assert.equal(dv(file).getUint16(0x24, true), 2);
});

test('embedded bodies, user data, unnamed data, every value type', () => {
  const events: EventDescription[] = [
    security(0, { bodyEncoding: 'embedded' }),
    {
      ...security(1),
      eventData: undefined,
      systemLayout: 'classic',
      bodyEncoding: 'embedded',
      userData: { element: 'LogFileCleared', xmlns: 'urn:x', fields: { SubjectUserName: 'bob' } },
    },
    { ...security(2), eventData: undefined, userData: { element: 'Foo', fields: { A: 'x' } } },
    {
      ...security(3),
      activityId: '{11111111-2222-3333-4444-555555555555}',
      userSid: 'S-1-5-21-1-2-3-500',
      qualifiers: 16384,
      eventData: undefined,
      unnamedData: [
        { type: 'ansi', value: 'abc' },
        { type: 'int8', value: -5 },
        { type: 'uint8', value: 250 },
        { type: 'int16', value: -300 },
        { type: 'uint16', value: 60000 },
        { type: 'int32', value: -70000 },
        { type: 'int64', value: -(2n ** 40n) },
        { type: 'uint64', value: 2n ** 63n },
        { type: 'real32', value: 1.5 },
        { type: 'real64', value: Math.PI },
        { type: 'bool', value: true },
        { type: 'binary', value: Uint8Array.of(1, 2, 3) },
        { type: 'guid', value: '01234567-89ab-cdef-0123-456789abcdef' },
        { type: 'sizet', value: 0x1234n },
        { type: 'filetime', value: 133_000_000_000_000_000n },
        { type: 'systemtime', value: '2024-03-01T10:00:00.250Z' },
        { type: 'hex32', value: 0xdeadbeef },
        { type: 'hex64', value: 0xdeadbeefcafef00dn },
        { type: 'stringArray', value: ['a', 'b'] },
        { type: 'array', itemType: 'uint32', value: [1, 2, 3] },
        { type: 'null' },
      ],
    },
  ];
  const recs = inspect(writeEvtx(events));
  assert.equal(recs.length, 4);
  for (const r of recs) assert.equal(r.eventRecordId, r.id);
  assert.throws(
    () => writeEvtx([{ ...security(0), eventData: { X: { type: 'uint8', value: 256 } } }]),
    RangeError,
  );
  assert.throws(() => writeEvtx([{ ...security(0), eventData: { X: 'x'.repeat(40_000) } }]), RangeError);
  // 64,000 bytes of value: fits a substitution, not a chunk.
  assert.throws(() => writeEvtx([{ ...security(0), eventData: { X: 'x'.repeat(32_000) } }]), /does not fit/);
  // A record larger than chunkFill still goes alone into a chunk.
  const big = inspect(
    writeEvtx([security(0), { ...security(1), eventData: { X: 'x'.repeat(30_000) } }, security(2)]),
  );
  assert.deepEqual(
    big.map((r) => r.chunk),
    [0, 1, 2],
  );
});

test('the stream writer writes the same bytes as writeEvtx', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evtx-writer-'));
  try {
    const events = many(1500);
    const path = join(dir, 'sub', 'out.evtx');
    const w = createEvtxStreamWriter(path);
    for (const e of events) w.write(e);
    const summary = w.close();
    assert.equal(summary.recordCount, 1500);
    assert.deepEqual(new Uint8Array(readFileSync(path)), writeEvtx(events));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('resequenceChunk renumbers records and EventRecordID, with fresh checksums', () => {
  const file = writeEvtx(many(30));
  const r = resequenceChunk(file.subarray(FILE_HEADER, FILE_HEADER + CHUNK), 5000n);
  assert.ok(r);
  assert.equal(r.records, 30);
  assert.equal(r.nextRecordId, 5030n);
  const out = new Uint8Array(FILE_HEADER + CHUNK);
  out.set(file.subarray(0, FILE_HEADER));
  out.set(r.chunk, FILE_HEADER);
  const v = dv(out);
  v.setBigUint64(0x18, 5030n, true);
  v.setUint32(0x7c, crc(out.subarray(0, 120)), true);
  const recs = inspect(out);
  recs.forEach((rec, i) => {
    assert.equal(rec.id, 5000n + BigInt(i));
    assert.equal(rec.eventRecordId, rec.id);
  });
  const bad = file.slice(FILE_HEADER, FILE_HEADER + CHUNK);
  bad[600]! ^= 0xff;
  assert.equal(resequenceChunk(bad, 1n), undefined);
});

const hasEvtxexport = spawnSync('evtxexport', ['-h'], { encoding: 'utf8' }).error === undefined;
test('libevtx exports every record (when evtxexport is installed)', {
  skip: !hasEvtxexport && 'no evtxexport',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'evtx-writer-'));
  try {
    const path = join(dir, 'x.evtx');
    const events = many(600).map((e, i) => (i % 2 ? { ...e, bodyEncoding: 'embedded' as const } : e));
    writeFileSync(path, writeEvtx(events, { chunkFill: 16 * 1024 }));
    const r = spawnSync('evtxexport', ['-f', 'xml', path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    const ids = [...r.stdout.matchAll(/<EventRecordID>(\d+)</g)].map((m) => Number(m[1]));
    assert.deepEqual(
      ids,
      events.map((_, i) => i + 1),
    );
    assert.equal([...r.stdout.matchAll(/<Data Name="IpAddress">10\.0\.13\.37</g)].length, 600);
    assert.match(r.stdout, /<TimeCreated SystemTime="2024-03-01T10:00:00\.0000000?0*Z"\/>/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
