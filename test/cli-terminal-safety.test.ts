/**
 * Issue 45, point 1: no human-readable output of `tae` carries a raw control character. A log
 * whose every string field holds C0 and C1 controls, ESC sequences and bidi overrides (in a
 * file whose own name holds them), a Sigma rule and a YARA rule whose texts hold them, are run
 * through every command that prints tables or summaries; stdout and stderr must hold none of
 * those characters raw, and must show them as escapes (so the test cannot pass by printing
 * nothing).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { terminalHostileEvents } from '../fixtures/terminal-hostile-events.js';
import { Progress } from '../src/cli/progress.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';

/** What a terminal acts on or that reorders text: C0 but newline and tab, DEL, C1, bidi, zero-width. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

function rawControls(text: string): string[] {
  const found = new Set<string>();
  for (const c of text)
    if (RAW_CONTROL.test(c)) found.add(`U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  return [...found];
}

const dir = mkdtempSync(join(tmpdir(), 'tae-terminal-'));
const LOG = 'case\u001b[2J\u001b]0;T\u0007\u202e.evtx';
writeFileSync(join(dir, LOG), writeEvtx(terminalHostileEvents()));
const HOSTILE_RULE = [
  'title: "Evil\\e]0;RULE\\a\\u202e rule\\e[2J"',
  'id: 7d0c4b5e-8f11-4c5e-9a3b-1a2b3c4d5e6f',
  'status: test',
  'description: "desc\\e[31m\\x9b"',
  'author: "me\\x07"',
  'logsource:',
  '  category: process_creation',
  '  product: windows',
  'detection:',
  '  selection:',
  '    CommandLine|contains: evil',
  '  condition: selection',
  'level: high',
  '',
].join('\n');
writeFileSync(join(dir, 'hostile.yml'), HOSTILE_RULE);
mkdirSync(join(dir, 'pack'));
writeFileSync(join(dir, 'pack', 'hostile\u001b[2J.yml'), HOSTILE_RULE);
writeFileSync(
  join(dir, 'hostile.yar'),
  'rule evil_term {\n  meta:\n    description = "yara\\x1b[2J\\x07 text"\n  strings:\n    $a = "evil" wide\n  condition:\n    $a\n}\n',
);

const tae = (...args: string[]) => runTae(dir, args);

before(ensureBuilt);

/** Runs `tae ARGS`; asserts no raw control on either stream and that escapes were shown. */
function safely(args: string[], shown: RegExp = /\\x1b|\\u001b/): void {
  const r = tae(...args);
  const label = `tae ${args.join(' ')}`;
  assert.notEqual(r.status, null, `${label}: killed`);
  assert.deepEqual(rawControls(r.stdout), [], `${label}: raw controls on stdout`);
  assert.deepEqual(rawControls(r.stderr), [], `${label}: raw controls on stderr`);
  assert.match(`${r.stdout}${r.stderr}`, shown, `${label}: the hostile text was not shown`);
}

test('analyze, parse --summary, sigma, search, yara and payloads print no raw control character', () => {
  safely(['analyze', LOG, '--sigma']);
  safely(['analyze', LOG, '--rule', 'hostile.yml', '--profile-rules']);
  safely(['parse', LOG, '--summary']);
  safely(['sigma', '--rule', 'hostile.yml', LOG]);
  safely(['sigma', LOG]);
  safely(['search', LOG, 'evil']);
  safely(['search', LOG, 'evil', '--sigma']);
  safely(['yara', '--rule', 'hostile.yar', LOG]);
  safely(['payloads', LOG]);
});

test('the engine commands (files, jobs, search of a job, rules) print no raw control character', () => {
  const data = join(dir, 'engine');
  const created = tae('tokens', 'create', '--data', data, '--json');
  assert.equal(created.status, 0, created.stderr);
  const token = JSON.parse(created.stdout)[0].token as string;
  const auth = ['--data', data, '--token', token, '--key', 'a passphrase of 16+ characters'];
  const upload = tae('files', 'upload', LOG, ...auth, '--json');
  assert.equal(upload.status, 0, upload.stderr);
  const fileId = JSON.parse(upload.stdout)[0].file_id as string;
  safely(['files', 'list', ...auth]);
  safely(['files', 'list', ...auth, '--json'], /\\u001b/);
  const job = tae('jobs', 'parse', fileId, '--sigma', ...auth, '--json');
  assert.equal(job.status, 0, job.stderr);
  const jobId = JSON.parse(job.stdout).id as string;
  safely(['jobs', 'get', jobId, ...auth], /Key Event Timeline/);
  safely(['jobs', 'get', jobId, ...auth, '--json'], /\\u009b/);
  safely(['jobs', 'list', ...auth], /\w+-\w+/);
  safely(['search', jobId, 'evil', ...auth]);
  safely(['rules', 'add', 'pack', '--data', data]);
  safely(['rules', 'list', '--data', data]);
});

test('error messages that echo input, and commander usage errors, show controls as escapes', () => {
  safely(['parse', 'missing\u001b[2J\u0007.evtx']);
  safely(['parse', '--bogus\u001b[2J']);
  safely(['lookup', 'x\u001b[2J', '--filter', 'Event ID:bogus\u001b[2J:1']);
});

test('a progress line shows a hostile file name escaped; only its own erase is a control', () => {
  const stream = Object.assign(new PassThrough(), { columns: 200 });
  const line = new Progress(stream as unknown as NodeJS.WriteStream, true);
  line.update(`parse: ${LOG} 10 %`, true);
  const written = String(stream.read());
  assert.ok(written.startsWith('\r\u001b[K'));
  assert.deepEqual(rawControls(written.slice('\r\u001b[K'.length)), []);
  assert.match(written, /case\\x1b\[2J\\x1b\]0;T\\x07\\u\{202E\}\.evtx/);
});
