/**
 * The files → events driver opens the next file while the current one decodes (a private
 * stored file is authenticated whole when opened), and never leaves an early-opened reader
 * open: a run that stops before that file's turn closes it before it returns.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { TaeError } from '../src/errors/index.js';
import type { EvtxReader } from '../src/parse/index.js';
import { decodeFiles, type PipelineFile } from '../src/pipeline/index.js';
import { smallLogEvents } from './helpers/small-log.js';

const log = writeEvtx(smallLogEvents());

/** A reader over `bytes` that notes when it is opened and closed. */
function trackedFile(name: string, bytes: Uint8Array, events: string[]): PipelineFile {
  return {
    name,
    open: async () => {
      events.push(`open ${name}`);
      let closed = false;
      const reader: EvtxReader = {
        read: async (into, offset) => {
          const n = Math.max(0, Math.min(into.length, bytes.length - offset));
          into.set(bytes.subarray(offset, offset + n));
          return n;
        },
        close: async () => {
          if (!closed) events.push(`close ${name}`);
          closed = true;
        },
      };
      return { source: reader, size: bytes.length };
    },
  };
}

test('the next file is opened while the current one decodes, and every reader is closed once', async () => {
  const events: string[] = [];
  const files = ['a', 'b', 'c'].map((n) => trackedFile(n, log, events));
  const result = await decodeFiles(
    files,
    {},
    {
      event: (_e, file) => {
        events.push(`event ${file.name}`);
        return undefined;
      },
    },
  );
  assert.equal(result.parsed, 3);
  assert.deepEqual(result.failures, []);
  // b opens before a's first event is seen; c before b's.
  assert.ok(events.indexOf('open b') < events.indexOf('event a'), events.join(', '));
  assert.ok(events.indexOf('open c') < events.indexOf('event b'), events.join(', '));
  for (const n of ['a', 'b', 'c']) assert.equal(events.filter((x) => x === `close ${n}`).length, 1, n);
});

test('a run cancelled in its first file closes the second, opened early, before it rejects', async () => {
  const events: string[] = [];
  const files = ['a', 'b'].map((n) => trackedFile(n, log, events));
  const abort = new AbortController();
  await assert.rejects(
    decodeFiles(
      files,
      { signal: abort.signal },
      {
        event: () => {
          abort.abort();
          return undefined;
        },
      },
    ),
    (e: Error & { code?: string }) => e.code === 'CANCELLED',
  );
  assert.ok(events.includes('open b'), events.join(', '));
  assert.ok(events.includes('close a') && events.includes('close b'), events.join(', '));
});

test('a file that fails to open is reported in its turn; the files around it are decoded', async () => {
  const events: string[] = [];
  const broken: PipelineFile = {
    name: 'broken',
    open: () => {
      throw new Error('not a PipelineFile error');
    },
  };
  const failing: PipelineFile = {
    name: 'gone',
    open: async () => {
      throw new TaeError('INPUT_UNREADABLE', 'gone is gone');
    },
  };
  const seen: string[] = [];
  const visitor = {
    event: (_e: unknown, file: { name: string }) => {
      if (!seen.includes(file.name)) seen.push(file.name);
      return undefined;
    },
  };
  const result = await decodeFiles(
    [trackedFile('a', log, events), failing, trackedFile('c', log, events)],
    {},
    visitor,
  );
  assert.equal(result.parsed, 2);
  assert.deepEqual(
    result.failures.map((f) => [f.file, f.error.message]),
    [['gone', 'gone is gone']],
  );
  assert.deepEqual(seen, ['a', 'c']);
  // An open that throws at once (not a TaeError) still stops the run, as before.
  await assert.rejects(
    decodeFiles([trackedFile('x', log, events), broken], {}, visitor),
    /not a PipelineFile error/,
  );
  assert.ok(events.includes('close x'));
});
