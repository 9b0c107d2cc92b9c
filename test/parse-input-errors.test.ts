/**
 * parseEvtx on inputs that are not logs or lost their records: a directory, a FIFO, a device,
 * a missing or forbidden path reject with a coded TaeError (never a raw Node error, never a
 * hang); a file that ends after its header says so in a `file.no_chunks` diagnostic.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Diagnostic, parseEvtx, TaeError } from '../src/index.js';
import { emptyLogHeader, headerOnlyLog } from './helpers/damaged-logs.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-parse-input-'));
const at = (name: string) => join(dir, name);

async function drain(source: string | Uint8Array, threads = 0): Promise<Diagnostic[]> {
  const parse = parseEvtx(source, { threads });
  for await (const _ of parse);
  return parse.diagnostics;
}

async function rejectsUnreadable(path: string, says: RegExp): Promise<void> {
  await assert.rejects(drain(path), (e: unknown) => {
    assert.ok(e instanceof TaeError, `a TaeError, not ${String(e)}`);
    assert.equal(e.code, 'INPUT_UNREADABLE');
    assert.ok(e.message.includes(path), `the message names ${path}: ${e.message}`);
    assert.match(e.message, says);
    return true;
  });
}

test('parseEvtx of a directory rejects with INPUT_UNREADABLE saying it is a directory', async () => {
  mkdirSync(at('logs'));
  await rejectsUnreadable(at('logs'), /is a directory/);
  await rejectsUnreadable(tmpdir(), /is a directory/);
});

test('parseEvtx of a missing file rejects with INPUT_UNREADABLE and ENOENT', async () => {
  await rejectsUnreadable(at('missing.evtx'), /ENOENT/);
});

test('parseEvtx of a file it may not read rejects with INPUT_UNREADABLE and EACCES', {
  skip: process.getuid?.() === 0 ? 'root reads every file' : false,
}, async () => {
  writeFileSync(at('secret.evtx'), headerOnlyLog());
  chmodSync(at('secret.evtx'), 0o000);
  await rejectsUnreadable(at('secret.evtx'), /EACCES/);
});

const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

test('parseEvtx of a FIFO rejects at once instead of waiting for a writer', {
  skip: hasMkfifo ? false : 'no mkfifo',
  timeout: 10_000,
}, async () => {
  assert.equal(spawnSync('mkfifo', [at('pipe')]).status, 0);
  await rejectsUnreadable(at('pipe'), /is a FIFO/);
});

test('parseEvtx of an endless device (/dev/zero) rejects at once', {
  skip: existsSync('/dev/zero') ? false : 'no /dev/zero',
  timeout: 10_000,
}, async () => {
  await rejectsUnreadable('/dev/zero', /is a character device, not a regular file/);
});

test('a header whose chunks are gone gives an error file.no_chunks diagnostic, file or buffer, any threads', async () => {
  writeFileSync(at('header-only.evtx'), headerOnlyLog());
  for (const source of [at('header-only.evtx'), headerOnlyLog()])
    for (const threads of [0, 1]) {
      const diagnostics = await drain(source, threads);
      assert.equal(diagnostics.length, 1);
      const [d] = diagnostics;
      assert.equal(d?.code, 'file.no_chunks');
      assert.equal(d?.severity, 'error');
      assert.match(d?.message ?? '', /no chunks.*header counts 1 chunk and record ids up to 7/);
    }
});

test('the header of an empty log gives a warning file.no_chunks diagnostic (nothing was lost)', async () => {
  const [d, ...more] = await drain(emptyLogHeader());
  assert.deepEqual(more, []);
  assert.equal(d?.code, 'file.no_chunks');
  assert.equal(d?.severity, 'warning');
  assert.match(d?.message ?? '', /no chunks/);
});
