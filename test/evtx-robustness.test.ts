/** Hostile input: every damaged file yields records and diagnostics or a coded error, never a crash or hang. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isTaeError, parseEvtx } from '../src/index.js';
import { EVTX_DIR, SKIP_NO_CORPUS } from './helpers/corpus.js';
import { MUTATIONS, mutate, rng } from './helpers/mutate.js';

async function decodeAll(input: Uint8Array) {
  const parse = parseEvtx(input, { outputs: ['event', 'json', 'xml'] });
  let records = 0;
  for await (const _ of parse) records++;
  return { records, diagnostics: parse.diagnostics };
}

/** Decodes, allowing only the coded "not EVTX" error; returns the record count (or -1 for that error). */
async function survives(input: Uint8Array): Promise<number> {
  try {
    return (await decodeAll(input)).records;
  } catch (e) {
    assert.ok(isTaeError(e), `uncoded error: ${(e as Error).stack}`);
    assert.equal(e.code, 'NOT_EVTX');
    return -1;
  }
}

test('a zero-length input is a coded NOT_EVTX error', async () => {
  await assert.rejects(decodeAll(new Uint8Array(0)), (e: unknown) => isTaeError(e) && e.code === 'NOT_EVTX');
});

test('random bytes and a text file are coded NOT_EVTX errors', async () => {
  const r = rng(7);
  const noise = Uint8Array.from({ length: 300_000 }, () => Math.floor(r() * 256));
  await assert.rejects(decodeAll(noise), (e: unknown) => isTaeError(e) && e.code === 'NOT_EVTX');
  await assert.rejects(
    decodeAll(Buffer.from('<Events>not a log</Events>\n'.repeat(500))),
    /not an EVTX file/,
  );
});

test('a missing file is a coded INPUT_UNREADABLE error naming the path', async () => {
  const parse = parseEvtx('/nonexistent/file.evtx');
  await assert.rejects(
    (async () => {
      for await (const _ of parse);
    })(),
    (e: unknown) =>
      isTaeError(e) && e.code === 'INPUT_UNREADABLE' && e.message.includes('/nonexistent/file.evtx'),
  );
});

const SAMPLES = [
  'security.evtx',
  'sysmon.evtx',
  'E_Windows_system32_winevt_logs_Microsoft-Windows-CAPI2%4Operational.evtx',
];

test('truncating a log at any chunk boundary keeps every record of the whole chunks before it', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const bytes = readFileSync(join(EVTX_DIR, 'evtx-crate-samples', 'security.evtx'));
  const full = await decodeAll(bytes);
  let previous = 0;
  for (let chunks = 1; 4096 + chunks * 65536 <= bytes.length; chunks += 5) {
    const cut = await decodeAll(bytes.subarray(0, 4096 + chunks * 65536 - 1000));
    assert.ok(cut.records >= previous, 'more bytes never yield fewer records');
    assert.ok(cut.records <= full.records);
    previous = cut.records;
  }
});

test('a flipped byte inside one record costs at most that chunk, never the file', {
  skip: SKIP_NO_CORPUS,
}, async () => {
  const bytes = readFileSync(join(EVTX_DIR, 'evtx-crate-samples', 'security.evtx'));
  const full = (await decodeAll(bytes)).records;
  const damaged = Uint8Array.from(bytes);
  const at = 4096 + 65536 * 3 + 700; // inside the first records of chunk 3
  damaged[at] = damaged[at]! ^ 0xff;
  const d = await decodeAll(damaged);
  assert.ok(d.records >= full - 200, `kept ${d.records} of ${full}`);
  assert.ok(
    d.diagnostics.some((x) => x.chunk === 3),
    'the damage is reported against chunk 3',
  );
});

/** Milliseconds to decode `input` (however it ends). */
async function timed(input: Uint8Array): Promise<number> {
  const started = performance.now();
  await survives(input);
  return performance.now() - started;
}

/**
 * A mutation's time bound: 2 s, or 20 times the undamaged bytes' decoding measured in this
 * process just before when that is longer (a loaded machine, or the coverage pass's
 * instrumentation, slows both alike). A mutant that hangs or goes quadratic still fails.
 */
const MUTANT_MS = 2000;
const MUTANT_TIMES_CLEAN = 20;

for (const file of SAMPLES) {
  test(`300 seeded mutations of ${file} never crash and finish in bounded time`, {
    skip: SKIP_NO_CORPUS,
  }, async () => {
    const bytes = readFileSync(join(EVTX_DIR, 'evtx-crate-samples', file)).subarray(0, 4096 + 65536 * 6);
    const bound = async () => Math.max(MUTANT_MS, MUTANT_TIMES_CLEAN * (await timed(bytes)));
    let limit = await bound();
    for (let seed = 1; seed <= 300; seed++) {
      const kind = MUTATIONS[seed % MUTATIONS.length]!;
      const mutant = mutate(bytes, kind, seed);
      let ms = await timed(mutant);
      if (ms >= limit) {
        // Over the bound once: measure the clean bytes and this mutant again, now.
        limit = await bound();
        ms = await timed(mutant);
      }
      assert.ok(
        ms < limit,
        `${file} ${kind} seed ${seed} took ${ms.toFixed(0)} ms (bound ${limit.toFixed(0)} ms)`,
      );
    }
  });
}
