import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { extractPayloads, PayloadSet } from '../src/payloads/index.js';
import { payloadsOf, withText } from './helpers/payload-extract.js';
import {
  doublyEncodedCommand,
  encodedServiceLauncher,
  gzipStage,
  scriptBlockEvent,
  splitScriptBlock,
  utf8b64,
  utf16b64,
} from './helpers/payload-log.js';
import { securityEvent } from './helpers/security-event.js';

describe('payloads reassembled from generated logs', () => {
  test('a script block split over 5 records, delivered out of order, is joined exactly in MessageNumber order', async () => {
    const { events, text } = splitScriptBlock(5);
    const { payloads, diagnostics } = await payloadsOf(events);
    const p = withText(payloads, text);
    assert.equal(p.kind, 'script-block');
    assert.deepEqual(p.parts, { present: 5, total: 5 });
    assert.equal(p.partial, false);
    assert.deepEqual(
      p.records.map((r) => r.recordId),
      [101, 102, 103, 104, 105],
    );
    assert.equal(p.label, 'C:\\Users\\Public\\stage.ps1');
    assert.deepEqual(diagnostics, []);
  });

  test('a script block missing a part is emitted partial at the end of the stream, with a diagnostic', async () => {
    const { events } = splitScriptBlock(5);
    const { payloads, diagnostics } = await payloadsOf(events.filter((e) => e.recordId !== 104));
    assert.equal(payloads.length, 1);
    assert.equal(payloads[0]!.partial, true);
    assert.deepEqual(payloads[0]!.parts, { present: 4, total: 5 });
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['payload.script_block_partial'],
    );
  });

  test('a doubly encoded command line gives both layers, the inner one exactly, with its decoding path', async () => {
    const { events, text } = doublyEncodedCommand();
    const { payloads } = await payloadsOf(events);
    const p = withText(payloads, text);
    assert.equal(p.kind, 'encoded-command');
    assert.deepEqual(p.provenance, {
      field: 'CommandLine',
      within: 'encoded-command',
      layers: ['base64', 'utf16le', 'base64', 'utf16le'],
      depth: 2,
    });
    assert.equal(payloads.length, 2);
    assert.deepEqual(p.records[0]!.recordId, 200);
  });

  test('a gzip-compressed FromBase64String stage in a 4688 command line is inflated exactly', async () => {
    const { events, text } = gzipStage();
    const { payloads } = await payloadsOf(events);
    const p = withText(payloads, text);
    assert.equal(p.kind, 'base64');
    assert.deepEqual(p.provenance.layers, ['base64', 'gzip']);
    assert.equal(p.records[0]!.channel, 'Security');
  });

  test('a service whose image path is an encoded launcher gives the image path and the decoded launcher', async () => {
    const { events, text, imagePath } = encodedServiceLauncher();
    const { payloads } = await payloadsOf(events);
    assert.equal(withText(payloads, imagePath).kind, 'service-image');
    const p = withText(payloads, text);
    assert.equal(p.kind, 'encoded-command');
    assert.equal(p.provenance.within, 'service-image');
    assert.equal(p.label, 'taesvc');
  });
});

describe('payload forms', () => {
  const commandLine = (cmd: string) => securityEvent({ eventId: 4688, data: { CommandLine: cmd } });
  const decoded = (cmd: string) => extractPayloads([commandLine(cmd)]).payloads.map((p) => p.text);

  test('every abbreviation of -EncodedCommand (and -ec, /e, en dash) is decoded; -ExecutionPolicy is not', () => {
    const b64 = utf16b64('Write-Output tae');
    for (const flag of [
      '-e',
      '-ec',
      '-en',
      '-enc',
      '-EnCoD',
      '-encodedcommand',
      '/enc',
      '\u2013e',
      '-EncodedCommand:',
    ])
      assert.deepEqual(
        decoded(`powershell ${flag}${flag.endsWith(':') ? '' : ' '}${b64}`),
        ['Write-Output tae'],
        flag,
      );
    assert.deepEqual(decoded(`powershell -ExecutionPolicy Bypass -File x.ps1`), []);
  });

  test('URL-safe base64, whitespace inside FromBase64String and missing padding are read', () => {
    const text = 'tae ~~~ ??? >>> payload';
    const urlSafe = utf8b64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    assert.ok(urlSafe.includes('-') || urlSafe.includes('_'));
    assert.deepEqual(decoded(`x [Convert]::FromBase64String('${urlSafe}')`), [text]);
    const spaced = utf8b64(text).replace(/(.{8})/g, '$1\n  ');
    assert.deepEqual(decoded(`x [Convert]::FromBase64String("${spaced}")`), [text]);
  });

  test('a DeflateStream stage is inflated as raw deflate', () => {
    const text = 'Invoke-TaeDeflated -Now';
    const b64 = utf8b64(deflateRawSync(Buffer.from(text)));
    const cmd = `powershell IEX(New-Object IO.StreamReader(New-Object IO.Compression.DeflateStream([IO.MemoryStream][Convert]::FromBase64String('${b64}'),[IO.Compression.CompressionMode]::Decompress))).ReadToEnd()`;
    assert.deepEqual(decoded(cmd), [text]);
  });

  test('a long base64 literal in a script block that decodes to a PE is kept as bytes', () => {
    const pe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(300, 0x90)]);
    const script = `$PEBytes = '${pe.toString('base64')}'\r\n$b = [Convert]::FromBase64String($PEBytes)`;
    const { payloads } = extractPayloads([
      securityEvent({
        eventId: 4104,
        provider: 'Microsoft-Windows-PowerShell',
        channel: 'Microsoft-Windows-PowerShell/Operational',
        data: { MessageNumber: '1', MessageTotal: '1', ScriptBlockText: script, ScriptBlockId: 'x' },
      }),
    ]);
    assert.equal(payloads.length, 2);
    assert.equal(payloads[1]!.kind, 'base64');
    assert.deepEqual(Buffer.from(payloads[1]!.bytes!), pe);
    assert.equal(payloads[1]!.provenance.within, 'script-block');
  });

  test('an encoded command that does not decode to text is not a payload', () => {
    assert.deepEqual(
      decoded(`tool.exe -e ${Buffer.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7]).toString('base64')}`),
      [],
    );
  });

  test('service (4697), scheduled task (4698), WMI consumer (Sysmon 20) and Defender (1116) fields are payloads', () => {
    const sysmon = { provider: 'Microsoft-Windows-Sysmon', channel: 'Microsoft-Windows-Sysmon/Operational' };
    const defender = {
      provider: 'Microsoft-Windows-Windows Defender',
      channel: 'Microsoft-Windows-Windows Defender/Operational',
    };
    const { payloads } = extractPayloads([
      securityEvent({ eventId: 4697, data: { ServiceName: 's', ServiceFileName: 'C:\\x.exe' } }),
      securityEvent({
        eventId: 4698,
        data: { TaskName: '\\t', TaskContent: '<Task><Exec>cmd</Exec></Task>' },
      }),
      securityEvent({ ...sysmon, eventId: 20, data: { Name: 'c', Destination: 'powershell -c 1' } }),
      securityEvent({
        ...defender,
        eventId: 1116,
        data: { 'Threat Name': 'HackTool:Win32/Mimikatz', Path: 'file:_C:\\m.exe' },
      }),
    ]);
    assert.deepEqual(
      payloads.map((p) => [p.kind, p.label, p.text]),
      [
        ['service-image', 's', 'C:\\x.exe'],
        ['scheduled-task', '\\t', '<Task><Exec>cmd</Exec></Task>'],
        ['wmi-consumer', 'c', 'powershell -c 1'],
        ['defender-detection', 'HackTool:Win32/Mimikatz', 'file:_C:\\m.exe'],
      ],
    );
  });

  test('the same payload in several events is one distinct payload listing every record', () => {
    const b64 = utf16b64('Write-Output again');
    const events = [1, 2, 3].map((recordId) =>
      securityEvent({ recordId, eventId: 4688, data: { CommandLine: `powershell -enc ${b64}` } }),
    );
    const set = new PayloadSet();
    for (const p of extractPayloads(events).payloads) set.add(p);
    assert.equal(set.payloads.length, 1);
    assert.equal(set.payloads[0]!.occurrences, 3);
    assert.deepEqual(
      set.payloads[0]!.records.map((r) => r.recordId),
      [1, 2, 3],
    );
  });

  test('one-part script blocks are emitted at once, without waiting for the end of the stream', async () => {
    const { payloads } = await payloadsOf([scriptBlockEvent('Get-Process', 7)]);
    assert.equal(withText(payloads, 'Get-Process').partial, false);
  });
});
