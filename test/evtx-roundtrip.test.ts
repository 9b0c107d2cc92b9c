/**
 * Round trip through our own writer: events described in code → EVTX bytes (fixtures/evtx-writer)
 * → decoder → the same events. Every value type, named/unnamed EventData, UserData inline and as
 * an embedded BinXML substitution, and enough records to fill many chunks.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type EventDescription,
  type EvtxValue,
  filetimeToIso,
  writeEvtx,
} from '../fixtures/evtx-writer/index.js';
import { type EvtxEvent, parseEvtx } from '../src/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex').toUpperCase();

/** The text Windows (and our decoder) renders for a written value. */
function expectedText(v: EvtxValue): string | string[] {
  if (typeof v === 'string') return v;
  switch (v.type) {
    case 'string':
    case 'ansi':
    case 'sid':
      return v.value;
    case 'int8':
    case 'uint8':
    case 'int16':
    case 'uint16':
    case 'int32':
    case 'uint32':
      return String(v.value);
    case 'hex32':
      return `0x${v.value.toString(16)}`;
    case 'real32':
    case 'real64':
      return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
    case 'int64':
    case 'uint64':
      return String(v.value);
    case 'hex64':
    case 'sizet':
      return `0x${v.value.toString(16)}`;
    case 'filetime':
      return filetimeToIso(v.value);
    case 'bool':
      return String(v.value);
    case 'binary':
      return hex(v.value);
    case 'guid':
      return v.value.replace(/[{}]/g, '').toUpperCase();
    case 'systemtime':
      return `${v.value.replace(/Z$/, '').slice(0, 23)}0000Z`;
    case 'stringArray':
      return v.value.length === 1 ? v.value[0]! : v.value;
    case 'null':
      return '';
    case 'array':
      return (v.value as unknown[]).map(String);
    default:
      return v satisfies never;
  }
}

const VALUES: Record<string, EvtxValue> = {
  Text: 'C:\\Windows\\System32\\cmd.exe /c "echo <hi> & bye"',
  Unicode: 'Zürich – 東京 – 🔥',
  Ansi: { type: 'ansi', value: 'plain ansi' },
  Int8: { type: 'int8', value: -5 },
  UInt8: { type: 'uint8', value: 250 },
  Int16: { type: 'int16', value: -30000 },
  UInt16: { type: 'uint16', value: 65000 },
  Int32: { type: 'int32', value: -2_000_000_000 },
  UInt32: { type: 'uint32', value: 4_000_000_000 },
  Int64: { type: 'int64', value: -9_000_000_000_000_000_000n },
  UInt64: { type: 'uint64', value: 18_000_000_000_000_000_000n },
  Hex32: { type: 'hex32', value: 0x1f4 },
  Hex64: { type: 'hex64', value: 0x8020000000000000n },
  SizeT: { type: 'sizet', value: 0x378n },
  Real64: { type: 'real64', value: 0.5 },
  Bool: { type: 'bool', value: true },
  Binary: { type: 'binary', value: Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x00]) },
  Guid: { type: 'guid', value: '{3a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9}' },
  FileTime: { type: 'filetime', value: 133_520_000_001_234_567n },
  SystemTime: { type: 'systemtime', value: '2024-02-29T23:59:58.123Z' },
  Sid: { type: 'sid', value: 'S-1-5-21-1004336348-1177238915-682003330-512' },
  Strings: { type: 'stringArray', value: ['first', 'second', ''] },
  Nothing: { type: 'null' },
};

function story(count: number): EventDescription[] {
  const events: EventDescription[] = [];
  const t0 = 133_500_000_000_000_000n;
  for (let i = 0; i < count; i++) {
    const base = {
      time: t0 + BigInt(i) * 12_345_678n,
      provider: 'Microsoft-Windows-Security-Auditing',
      providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
      channel: i % 3 === 0 ? 'Security' : 'Microsoft-Windows-Sysmon/Operational',
      computer: `WS-${i % 7}.corp.example`,
      processId: 600 + (i % 5),
      threadId: 700 + i,
      level: i % 5,
      task: 12544,
      keywords: 0x8020000000000000n,
      ...(i % 4 === 0 ? { userSid: 'S-1-5-18' } : {}),
    };
    switch (i % 5) {
      case 0:
        events.push({ ...base, eventId: 4688, eventData: VALUES });
        break;
      case 1:
        events.push({
          ...base,
          eventId: 4624,
          eventData: { TargetUserName: `user${i}`, LogonType: { type: 'uint32', value: 3 } },
        });
        break;
      case 2:
        events.push({ ...base, eventId: 7036, unnamedData: ['Windows Update', 'running', `#${i}`] });
        break;
      case 3:
        events.push({
          ...base,
          eventId: 1102,
          userData: {
            element: 'LogFileCleared',
            xmlns: 'http://manifests.microsoft.com/win/2004/08/windows/eventlog',
            fields: { SubjectUserName: `admin${i}`, SubjectLogonId: { type: 'hex64', value: 0x3e7n } },
          },
        });
        break;
      default:
        events.push({
          ...base,
          eventId: 4104,
          bodyEncoding: 'embedded',
          eventData: { ScriptBlockText: `Get-Process # ${i}`, MessageNumber: { type: 'int32', value: 1 } },
        });
    }
  }
  return events;
}

function check(e: EvtxEvent, d: EventDescription, index: number): void {
  const at = `event ${index}`;
  assert.equal(e.eventId, d.eventId, at);
  assert.equal(e.recordId, index + 1, at);
  assert.equal(e.timestampText, filetimeToIso(d.time as bigint), at);
  assert.equal(e.channel, d.channel, at);
  assert.equal(e.computer, d.computer, at);
  assert.equal(e.provider, d.provider, at);
  assert.equal(e.providerGuid, d.providerGuid, at);
  assert.equal(e.processId, d.processId, at);
  assert.equal(e.threadId, d.threadId, at);
  assert.equal(e.level, d.level, at);
  assert.equal(e.keywords, '0x8020000000000000', at);
  assert.equal(e.userSid, d.userSid ?? null, at);
  if (d.eventData) {
    const expected = Object.fromEntries(Object.entries(d.eventData).map(([k, v]) => [k, expectedText(v)]));
    assert.deepEqual(e.data, expected, at);
  }
  if (d.unnamedData) assert.deepEqual(e.unnamedData, d.unnamedData, at);
  if (d.userData) {
    assert.equal(e.userDataName, d.userData.element, at);
    const expected = Object.fromEntries(
      Object.entries(d.userData.fields).map(([k, v]) => [k, expectedText(v)]),
    );
    assert.deepEqual(e.data, expected, at);
  }
}

test('3,000 written events decode back to the same events, over many chunks, with every value type', async () => {
  const events = story(3000);
  const bytes = writeEvtx(events);
  const parse = parseEvtx(bytes, { outputs: ['event', 'json', 'xml'] });
  let i = 0;
  for await (const r of parse) {
    check(r.event!, events[i]!, i);
    assert.doesNotThrow(() => JSON.parse(r.json!));
    i++;
  }
  assert.equal(i, events.length);
  assert.ok(parse.stats.chunks > 10, `only ${parse.stats.chunks} chunks`);
  assert.deepEqual(parse.diagnostics, []);
});

test('the same written file decodes identically on the main thread and with two workers', async () => {
  const bytes = writeEvtx(story(1500));
  const run = async (threads: number) => {
    const out: string[] = [];
    for await (const r of parseEvtx(bytes, { threads, outputs: ['json'] })) out.push(r.json!);
    return out;
  };
  assert.deepEqual(await run(2), await run(0));
});
