import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { extractPayloads, PAYLOAD_LIMITS } from '../src/payloads/index.js';
import { payloadsOf } from './helpers/payload-extract.js';
import { scriptBlockEvent, utf8b64 } from './helpers/payload-log.js';
import { securityEvent } from './helpers/security-event.js';

const MAX = PAYLOAD_LIMITS.maxPayloadBytes;
const codes = (ds: readonly { code: string }[]) => [...new Set(ds.map((d) => d.code))];
const stage = (b64: string) => `IEX ([Convert]::FromBase64String('${b64}'))`;
const cmd = (commandLine: string, recordId = 1) =>
  securityEvent({ recordId, eventId: 4688, data: { CommandLine: commandLine } });

describe('payload bombs are cut at the documented bounds, with a diagnostic beside the good results', () => {
  test('a gzip stream that inflates to 8 MiB (from a few KiB in one record) is cut at maxPayloadBytes', async () => {
    const bomb = gzipSync(Buffer.alloc((8 * MAX) / 4, 'A'), { level: 9 });
    assert.ok(bomb.length < 16 * 1024, `${bomb.length} bytes compressed`);
    const good = utf8b64('Write-Output good');
    const { payloads, diagnostics } = await payloadsOf([
      scriptBlockEvent(`${stage(utf8b64(bomb))}\r\n${stage(good)}`, 1),
    ]);
    const cut = payloads.find((p) => p.truncated)!;
    assert.ok(
      cut.text !== undefined && cut.text.length <= MAX && cut.text.length >= MAX / 2,
      `${cut.text?.length}`,
    );
    assert.match(cut.text, /^A+$/);
    assert.deepEqual(cut.provenance.layers, ['base64', 'gzip']);
    assert.ok(
      payloads.some((p) => p.text === 'Write-Output good'),
      'the good stage beside the bomb is kept',
    );
    assert.deepEqual(codes(diagnostics), ['payload.too_large']);
    assert.match(diagnostics[0]!.message, /gzip stream inflates past 4194304 bytes/);
  });

  test('a zip-bomb-like nested gzip (gzip of gzip of 64 MiB) is inflated twice and cut, never allocated whole', () => {
    const inner = gzipSync(Buffer.alloc(64 * 1024 * 1024, 'B'), { level: 9 });
    const outer = gzipSync(inner, { level: 9 });
    assert.ok(outer.length < 4096, `${outer.length} bytes`);
    const before = process.memoryUsage().rss;
    const { payloads, diagnostics } = extractPayloads([cmd(`powershell ${stage(utf8b64(outer))}`)]);
    assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024);
    assert.equal(payloads.length, 1);
    assert.deepEqual(payloads[0]!.provenance.layers, ['base64', 'gzip', 'gzip']);
    assert.equal(payloads[0]!.truncated, true);
    assert.ok(payloads[0]!.text!.length <= MAX);
    assert.deepEqual(codes(diagnostics), ['payload.too_large']);
  });

  test('base64 nested 30 deep is unwrapped to maxDepth and the rest left as it is, with payload.too_deep', () => {
    let text = 'Write-Output core';
    for (let i = 0; i < 30; i++) text = stage(utf8b64(text));
    const { payloads, diagnostics } = extractPayloads([cmd(`powershell -c "${text}"`)]);
    assert.equal(payloads.length, PAYLOAD_LIMITS.maxDepth);
    assert.deepEqual(
      payloads.map((p) => p.provenance.depth),
      Array.from({ length: PAYLOAD_LIMITS.maxDepth }, (_, i) => i + 1),
    );
    assert.deepEqual(codes(diagnostics), ['payload.too_deep']);
  });

  test('gzip nested inside gzip 20 times stops inflating at maxDepth, with payload.too_deep', () => {
    let bytes: Buffer = Buffer.from('Write-Output deep');
    for (let i = 0; i < 20; i++) bytes = gzipSync(bytes);
    const { payloads, diagnostics } = extractPayloads([cmd(`x ${stage(utf8b64(bytes))}`)]);
    assert.equal(payloads.length, 1);
    assert.equal(payloads[0]!.provenance.depth, PAYLOAD_LIMITS.maxDepth);
    assert.equal(payloads[0]!.text, undefined, 'still compressed: bytes');
    assert.deepEqual(codes(diagnostics), ['payload.too_deep']);
  });

  test('an event with 500 encoded stages yields maxPayloadsPerEvent payloads and payload.too_many once', () => {
    const text = Array.from({ length: 500 }, (_, i) => stage(utf8b64(`Write-Output ${i}`))).join(';');
    const { payloads, diagnostics } = extractPayloads([cmd(text)]);
    assert.equal(payloads.length, PAYLOAD_LIMITS.maxPayloadsPerEvent);
    assert.equal(payloads.at(-1)!.text, `Write-Output ${PAYLOAD_LIMITS.maxPayloadsPerEvent - 1}`);
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['payload.too_many'],
    );
  });

  test('the payloads of one event are bounded in bytes together: past maxBytesPerEvent the rest is left out', () => {
    const bomb = utf8b64(gzipSync(Buffer.alloc(1024 * 1024, 'E')));
    const text = Array.from({ length: 10 }, () => stage(bomb)).join(';');
    const limits = { maxPayloadBytes: 256 * 1024, maxBytesPerEvent: 1024 * 1024 };
    const { payloads, diagnostics } = extractPayloads([cmd(text)], { limits });
    assert.equal(payloads.length, 2, '2 texts of 256 KiB, held as 512 KiB each');
    assert.deepEqual(codes(diagnostics), ['payload.too_large', 'payload.too_many']);
    assert.match(diagnostics.at(-1)!.message, /payloads of one event over 1048576 bytes/);
  });

  test('huge base64 is cut to what decodes to maxPayloadBytes before anything is decoded', () => {
    const big = utf8b64(Buffer.alloc(256 * 1024, 'C'));
    const { payloads, diagnostics } = extractPayloads([cmd(stage(big))], {
      limits: { maxPayloadBytes: 64 * 1024 },
    });
    assert.equal(payloads[0]!.text!.length, 64 * 1024 - 1); // cut at a whole base64 quantum
    assert.equal(payloads[0]!.truncated, true);
    assert.deepEqual(codes(diagnostics), ['payload.too_large']);
  });

  test('a reassembled script block over maxPayloadBytes is cut, marked truncated', () => {
    const events = [1, 2, 3].map((n) =>
      securityEvent({
        recordId: n,
        eventId: 4104,
        provider: 'Microsoft-Windows-PowerShell',
        channel: 'Microsoft-Windows-PowerShell/Operational',
        data: {
          MessageNumber: String(n),
          MessageTotal: '3',
          ScriptBlockId: 'big',
          ScriptBlockText: 'D'.repeat(30_000),
        },
      }),
    );
    const { payloads, diagnostics } = extractPayloads(events, { limits: { maxPayloadBytes: 50_000 } });
    assert.equal(payloads[0]!.text!.length <= 50_000, true);
    assert.equal(payloads[0]!.truncated, true);
    assert.deepEqual(codes(diagnostics), ['payload.too_large']);
  });

  test('script blocks that never complete are evicted oldest first past the pending bounds, emitted partial', () => {
    const part = (id: string, n: number) =>
      securityEvent({
        recordId: n,
        eventId: 4104,
        provider: 'Microsoft-Windows-PowerShell',
        channel: 'Microsoft-Windows-PowerShell/Operational',
        data: { MessageNumber: '1', MessageTotal: '2', ScriptBlockId: id, ScriptBlockText: `part of ${id}` },
      });
    const events = Array.from({ length: 10 }, (_, i) => part(`block-${i}`, i + 1));
    const byCount = extractPayloads(events, { limits: { maxPendingScriptBlocks: 4 } });
    const evicted = byCount.diagnostics.filter((d) => d.code === 'payload.script_block_evicted');
    assert.equal(evicted.length, 6);
    assert.match(evicted[0]!.message, /block-0 .*1 of 2 parts.*\(count\)/);
    assert.equal(byCount.payloads.length, 10);
    assert.ok(byCount.payloads.every((p) => p.partial));
    const byBytes = extractPayloads(events, { limits: { maxPendingScriptBlockBytes: 60 } });
    assert.ok(
      byBytes.diagnostics.some(
        (d) => d.code === 'payload.script_block_evicted' && /\(bytes\)/.test(d.message),
      ),
    );
  });

  test('bad part numbers (0, over the total, not a number) are ignored with a diagnostic', () => {
    const bad = (MessageNumber: string, MessageTotal: string) =>
      securityEvent({
        eventId: 4104,
        provider: 'Microsoft-Windows-PowerShell',
        channel: 'Microsoft-Windows-PowerShell/Operational',
        data: { MessageNumber, MessageTotal, ScriptBlockId: 'b', ScriptBlockText: 'x' },
      });
    const { payloads, diagnostics } = extractPayloads([
      bad('0', '2'),
      bad('3', '2'),
      bad('x', '1'),
      bad('1', '99999999'),
    ]);
    assert.equal(payloads.length, 0);
    assert.deepEqual(codes(diagnostics), ['payload.script_block_bad_part']);
    assert.equal(diagnostics.length, 4);
  });

  test('diagnostics are bounded: past maxDiagnostics they are counted, not kept', async () => {
    const { createPayloadExtractor } = await import('../src/payloads/index.js');
    const x = createPayloadExtractor({ limits: { maxDiagnostics: 3 } });
    for (let i = 0; i < 10; i++)
      x.add(securityEvent({ eventId: 4104, provider: 'PowerShellCore', data: { MessageNumber: 'bad' } }));
    assert.equal(x.diagnostics.length, 3);
    assert.equal(x.droppedDiagnostics, 7);
  });

  test('limits are checked at the door: unknown names and non-positive values are refused', () => {
    assert.throws(
      () => extractPayloads([], { limits: { maxDepht: 3 } as never }),
      /unknown option 'maxDepht' \(did you mean 'maxDepth'\?\)/,
    );
    assert.throws(
      () => extractPayloads([], { limits: { maxDepth: 0 } }),
      /options\.limits\.maxDepth must be a positive integer/,
    );
  });
});
