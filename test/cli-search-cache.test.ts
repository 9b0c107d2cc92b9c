/**
 * The index cache of `tae search FILES` (src/cli/search-cache.ts): the second search of the
 * same files opens the index the first one kept, with the same answer; entries are keyed by
 * the files' content (a changed file is indexed again, never answered from the old index),
 * encrypted (nothing of the events in the clear, not even SQLite's header), owner-only,
 * bounded (`TAE_SEARCH_CACHE_MB`), and an entry that does not open is built again.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../fixtures/example-events.js';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { smallLog } from './helpers/small-log.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-search-cache-'));
const temp = mkdtempSync(join(dir, 'tmp-'));
writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
writeFileSync(join(dir, 'small.evtx'), smallLog());
const cacheDir = join(dir, '.tae-cache', 'search');
const tae = (env: Record<string, string>, ...args: string[]) =>
  runTae(dir, args, { TMPDIR: temp, TAE_DEBUG: '1', ...env });
const debug = (stderr: string) => stderr.split('\n').filter((l) => l.includes('search index cache'));
const entries = () => readdirSync(cacheDir).sort();

before(ensureBuilt);

test('the second search of the same files opens the index the first kept, with the same answer', () => {
  const first = tae({}, 'search', 'example.evtx', 'powershell', '--jsonl');
  assert.equal(first.status, 0, first.stderr);
  assert.match(debug(first.stderr).join('\n'), /kept search-[0-9a-f]{64}\.sqlite/);
  const second = tae({}, 'search', 'example.evtx', 'powershell', '--jsonl');
  assert.equal(second.status, 0, second.stderr);
  assert.match(debug(second.stderr).join('\n'), /hit search-[0-9a-f]{64}\.sqlite/);
  assert.equal(second.stdout, first.stdout);
  assert.ok(second.stdout.length > 0);
  assert.deepEqual(readdirSync(temp), [], 'nothing left in the temporary directory');
});

test('a cached entry is encrypted and owner-only: no SQLite header, no event text', () => {
  assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
  for (const name of entries()) {
    const path = join(cacheDir, name);
    assert.equal(statSync(path).mode & 0o777, 0o600, name);
    const bytes = readFileSync(path);
    assert.ok(!bytes.subarray(0, 16).toString('latin1').startsWith('SQLite format 3'), name);
    assert.equal(bytes.indexOf('powershell'), -1, name);
    assert.equal(bytes.indexOf(Buffer.from('powershell', 'utf16le')), -1, name);
  }
});

test('a file whose content changed is indexed again, never answered from the old index', () => {
  const before = entries();
  writeFileSync(join(dir, 'example.evtx'), smallLog()); // same name, other events
  const r = tae({}, 'search', 'example.evtx', 'powershell', '--jsonl');
  assert.equal(r.status, 0, r.stderr);
  assert.match(debug(r.stderr).join('\n'), /kept/);
  assert.equal(r.stdout, '', 'the small log has no powershell event');
  assert.equal(entries().length, before.length + 2);
  writeFileSync(join(dir, 'example.evtx'), writeEvtx(exampleEvents()));
});

test('an entry that does not open (damaged) is removed and built again', () => {
  for (const name of entries())
    if (name.endsWith('.sqlite')) writeFileSync(join(cacheDir, name), 'not an index');
  const r = tae({}, 'search', 'example.evtx', 'powershell', '--jsonl');
  assert.equal(r.status, 0, r.stderr);
  assert.match(debug(r.stderr).join('\n'), /does not open; indexing again[\s\S]*kept/);
  assert.ok(r.stdout.length > 0);
});

test('the cache is bounded: the oldest entries go past TAE_SEARCH_CACHE_MB, 0 keeps none, --no-cache none', () => {
  const size = (name: string) => statSync(join(cacheDir, name)).size;
  const total = () => entries().reduce((n, e) => n + size(e), 0);
  assert.equal(tae({ TAE_SEARCH_CACHE_MB: '1' }, 'search', 'small.evtx', 'x').status, 0);
  assert.ok(total() <= 2 ** 20, `${total()} bytes kept under a 1 MiB bound`);
  const kept = entries();
  writeFileSync(join(dir, 'other.evtx'), smallLog());
  assert.equal(tae({ TAE_SEARCH_CACHE_MB: '0' }, 'search', 'other.evtx', 'x').status, 0);
  assert.equal(tae({}, 'search', '--no-cache', 'other.evtx', 'x').status, 0);
  assert.deepEqual(entries(), kept);
});

test('a FIFO or a device named as the source is refused, not read for its digest (which would not end)', () => {
  const fifo = spawnSync('mkfifo', [join(dir, 'pipe')]).status === 0;
  for (const [input, kind] of [
    ...(fifo ? [['pipe', 'a FIFO \\(pipe\\)'] as const] : []),
    ['/dev/zero', 'a character device'] as const,
  ]) {
    const r = runTae(dir, ['search', input, 'x'], { TMPDIR: temp });
    assert.equal(r.status, 3, `${input}: ${r.signal ?? r.stderr}`);
    assert.match(r.stderr, new RegExp(`^tae: cannot open ${input}: it is ${kind}, not a regular file\\n$`));
  }
});
