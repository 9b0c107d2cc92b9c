/** `tae payloads` on a generated log: golden outputs, files under -o, YARA and exit codes. */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { matchesGolden } from './helpers/golden.js';
import {
  doublyEncodedCommand,
  encodedServiceLauncher,
  gzipStage,
  payloadLog,
  splitScriptBlock,
  utf16b64,
} from './helpers/payload-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-payloads-'));
/** A service whose name and launcher try to drive the terminal (ESC sequences, a bare CR). */
const HOSTILE = {
  provider: 'Service Control Manager',
  channel: 'System',
  computer: 'WS-PAYLOAD-01',
  recordId: 500,
  time: '2026-04-02T09:04:00.0000000Z',
  eventId: 7045,
  eventData: {
    ServiceName: '../../evil\u001b[2J\rname',
    ImagePath: `cmd /c powershell -e ${utf16b64('Write-Host "\u001b[31mred\u001b[0m"')}`,
  },
};
before(() => {
  ensureBuilt();
  writeFileSync(join(dir, 'payloads.evtx'), writeEvtx([...payloadLog(), HOSTILE]));
  writeFileSync(
    join(dir, 'test.yar'),
    'rule double_encoded_cradle { strings: $a = "tae-double-stage.ps1" condition: $a }\n' +
      'rule gzip_beacon { strings: $a = "tae-gzip-beacon.example" condition: $a }\n',
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('tae payloads prints each payload with its records, decoding path and text, control characters escaped', () => {
  const r = runTae(dir, ['payloads', 'payloads.evtx', '--yara', '--rule', 'test.yar']);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /\u001b|\r/);
  matchesGolden('cli-payloads.txt', r.stdout);
});

test('tae payloads -f jsonl prints one object per payload with its exact text', () => {
  const r = runTae(dir, ['payloads', 'payloads.evtx', '-f', 'jsonl']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { text?: string; kind: string });
  for (const text of [
    splitScriptBlock().text,
    doublyEncodedCommand().text,
    gzipStage().text,
    encodedServiceLauncher().text,
  ])
    assert.ok(
      lines.some((l) => l.text === text),
      text.slice(0, 40),
    );
  matchesGolden('cli-payloads.jsonl', r.stdout);
});

test('tae payloads -o DIR writes one file per payload under generated names, and an index', () => {
  const out = join(dir, 'out');
  const r = runTae(dir, ['payloads', 'payloads.evtx', '-o', 'out', '-f', 'jsonl']);
  assert.equal(r.status, 0, r.stderr);
  const files = readdirSync(out).sort();
  assert.deepEqual(files, [
    '0001-script-block.txt',
    '0002-encoded-command.txt',
    '0003-encoded-command.txt',
    '0004-base64.txt',
    '0005-service-image.txt',
    '0006-encoded-command.txt',
    '0007-service-image.txt',
    '0008-encoded-command.txt',
    'index.jsonl',
  ]);
  assert.equal(readFileSync(join(out, '0001-script-block.txt'), 'utf8'), splitScriptBlock().text);
  assert.equal(readFileSync(join(out, '0004-base64.txt'), 'utf8'), gzipStage().text);
  assert.equal(readFileSync(join(out, 'index.jsonl'), 'utf8'), r.stdout);
  assert.doesNotMatch(r.stdout, /"text"/, 'content is in the files, not on stdout');
});

test('tae payloads --yara with the builtin pack finds the download cradle only inside the decoded command', () => {
  const r = runTae(dir, ['payloads', 'payloads.evtx', '--yara', '-f', 'jsonl']);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { depth: number; matches: { rule: string }[] });
  const cradle = lines.filter((l) =>
    l.matches.some((m) => m.rule === 'tae_script_powershell_download_cradle'),
  );
  assert.deepEqual(
    cradle.map((l) => l.depth),
    [2],
  );
  const raw = runTae(dir, ['yara', 'payloads.evtx']);
  assert.doesNotMatch(raw.stdout, /download_cradle/);
});

test('an unreadable input is exit 3, after the payloads of the readable ones', () => {
  const r = runTae(dir, ['payloads', 'missing.evtx', 'payloads.evtx', '-f', 'jsonl']);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /missing\.evtx/);
  assert.equal(r.stdout.trim().split('\n').length, 8);
});

test('a payload cut at a bound is reported on stderr as a warning with its record (exit 0); -q hides it', () => {
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 'A'), { level: 9 }).toString('base64');
  const cmd = `powershell IEX([Convert]::FromBase64String('${bomb}'))`;
  writeFileSync(
    join(dir, 'bomb.evtx'),
    writeEvtx([
      {
        ...HOSTILE,
        eventId: 4688,
        provider: 'Microsoft-Windows-Security-Auditing',
        channel: 'Security',
        eventData: { CommandLine: cmd },
      },
    ]),
  );
  const r = runTae(dir, ['payloads', 'bomb.evtx', '-f', 'jsonl', '-o', 'bomb-out']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    r.stderr,
    'tae: warning: bomb.evtx: Security#500: payload.too_large: gzip stream inflates past 4194304 bytes: cut at the bound\n',
  );
  const line = JSON.parse(r.stdout) as { truncated: boolean; bytes: number; file: string };
  assert.equal(line.truncated, true);
  assert.ok(
    line.bytes <= 4 * 1024 * 1024 && line.bytes === readFileSync(join(dir, 'bomb-out', line.file)).length,
  );
  assert.equal(runTae(dir, ['payloads', 'bomb.evtx', '-q', '-o', 'bomb-out']).stderr, '');
});

test('YARA rules that do not compile are an input error (exit 3) naming the file', () => {
  writeFileSync(join(dir, 'broken.yar'), 'rule broken { condition: nope }\n');
  const r = runTae(dir, ['payloads', 'payloads.evtx', '--yara', '--rule', 'broken.yar']);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /^tae: YARA rules do not compile: broken\.yar:1:/);
});
