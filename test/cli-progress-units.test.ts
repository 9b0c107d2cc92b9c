/**
 * The progress line (src/cli/progress.ts) called directly, on a stream that says it is a
 * terminal and records what is written (test/cli-progress.test.ts runs the built CLI under a
 * pseudo-terminal, in children coverage does not count): sizes and durations in words, the
 * self-rewriting line (throttled, clipped to the width, names escaped, erased), and a run's
 * line and closing line; nothing at all when the stream is not a terminal or the run is quiet.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { bytesText, durationText, Progress, RunProgress } from '../src/cli/progress.js';

const dir = mkdtempSync(join(tmpdir(), 'tae-cli-progress-units-'));
const A = join(dir, 'a.evtx');
const B = join(dir, 'b.evtx');
writeFileSync(A, Buffer.alloc(1024));
writeFileSync(B, Buffer.alloc(3072));

/** A stream that is a terminal (or not) of `columns`, keeping what is written. */
function terminal(isTTY = true, columns = 80) {
  const written: string[] = [];
  const stream = {
    isTTY,
    columns,
    write(chunk: string) {
      written.push(chunk);
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

test('sizes and durations read as words: B, KiB, MiB, GiB; s, min s, h min', () => {
  assert.deepEqual([0, 512, 1023, 1024, 655_360, 12.3 * 1048576, 1.5 * 1073741824].map(bytesText), [
    '0 B',
    '512 B',
    '1023 B',
    '1 KiB',
    '640 KiB',
    '12.3 MiB',
    '1.5 GiB',
  ]);
  assert.deepEqual([-3, 0, 42.4, 59.6, 185, 3599, 3720, 90_000].map(durationText), [
    '0 s',
    '0 s',
    '42 s',
    '1 min 00 s',
    '3 min 05 s',
    '59 min 59 s',
    '1 h 02 min',
    '25 h 00 min',
  ]);
});

test('the progress line rewrites itself at most ten times a second, clipped, escaped, then erased', () => {
  const { stream, written } = terminal(true, 30);
  const p = new Progress(stream);
  assert.equal(p.enabled, true);
  const started = Date.now();
  p.update('first');
  p.update('too soon');
  // Unless this thread stalled for 100 ms between the two (a loaded machine).
  if (Date.now() - started < 100) assert.deepEqual(written, ['\r\x1b[Kfirst']);
  p.update('forced, and long enough to be clipped', true);
  assert.equal(written.at(-1), '\r\x1b[Kforced, and long enough to b…');
  p.update('a\x1b[2Jname', true);
  assert.match(written.at(-1)!, /^\r\x1b\[Ka.+name$/);
  assert.ok(!written.at(-1)!.slice(4).includes('\x1b'), 'a control in a name is shown escaped');
  p.done();
  assert.equal(written.at(-1), '\r\x1b[K');
  const count = written.length;
  p.done();
  assert.equal(written.length, count, 'erased once');
});

test('a progress line on a stream that is not a terminal writes nothing', () => {
  const { stream, written } = terminal(false);
  const p = new Progress(stream);
  assert.equal(p.enabled, false);
  p.update('x', true);
  p.done();
  assert.deepEqual(written, []);
});

/** Past the line's throttle (ten updates a second). */
const later = () => sleep(110);

test("a run's progress: files done, records, bytes of the total and ETA, then the closing line", async () => {
  const saved = process.env.TAE_PROGRESS_AFTER_MS;
  process.env.TAE_PROGRESS_AFTER_MS = '0';
  try {
    const { stream, written } = terminal();
    const run = new RunProgress({ command: 'sigma', files: [A, B], stream });
    assert.equal(run.enabled, true);
    run.update({ fileIndex: 0, bytesInFile: 512, records: 1234 });
    assert.match(written.at(-1)!, /^\r\x1b\[Ksigma: 0\/2 files, 1,234 records, 512 B of 4 KiB, ETA \d+ s$/);
    // Bytes past the file's size count as the file's size; the position never goes back.
    await later();
    run.update({ fileIndex: 1, bytesInFile: 10_000, records: 1500 });
    assert.match(written.at(-1)!, /sigma: 1\/2 files, 1,500 records, 4 KiB of 4 KiB$/);
    await later();
    run.update({ fileIndex: 0, bytesInFile: 0 });
    assert.match(written.at(-1)!, /sigma: 1\/2 files, 1,500 records, 4 KiB of 4 KiB$/);
    run.finish({ records: 2000 });
    assert.equal(written.at(-2), '\r\x1b[K');
    assert.match(
      written.at(-1)!,
      /^sigma: 2 files, 2,000 records, 4 KiB in \d+\.\d s, [\d,]+ events\/s, peak memory \d+(\.\d)? [KMG]i?B\n$/,
    );
  } finally {
    if (saved === undefined) delete process.env.TAE_PROGRESS_AFTER_MS;
    else process.env.TAE_PROGRESS_AFTER_MS = saved;
  }
});

test('a run that finishes files out of order counts each; without records the rate is in files', async () => {
  const saved = process.env.TAE_PROGRESS_AFTER_MS;
  process.env.TAE_PROGRESS_AFTER_MS = '0';
  try {
    const { stream, written } = terminal();
    const run = new RunProgress({ command: 'yara', files: [A, B], stream });
    run.fileFinished(1);
    assert.match(written.at(-1)!, /yara: 1\/2 files, 3 KiB of 4 KiB, ETA \d+ s$/);
    await later();
    run.fileFinished(0);
    assert.match(written.at(-1)!, /yara: 2\/2 files, 4 KiB of 4 KiB$/);
    run.finish();
    assert.match(written.at(-1)!, /^yara: 2 files, 4 KiB in \d+\.\d s, [\d,]+ files\/s, peak memory /);
    const stopped = terminal();
    const failed = new RunProgress({ command: 'parse', files: [A], stream: stopped.stream });
    failed.update({ fileIndex: 0, bytesInFile: 100 });
    failed.stop();
    assert.equal(stopped.written.at(-1), '\r\x1b[K', 'a failed run erases its line, no closing line');
  } finally {
    if (saved === undefined) delete process.env.TAE_PROGRESS_AFTER_MS;
    else process.env.TAE_PROGRESS_AFTER_MS = saved;
  }
});

test('a quiet run, a run not on a terminal, and a run that ends before the line is due print nothing', () => {
  for (const [quiet, tty] of [
    [true, true],
    [false, false],
  ] as const) {
    const { stream, written } = terminal(tty);
    const run = new RunProgress({ command: 'parse', files: [A, B], quiet, stream });
    assert.equal(run.enabled, false);
    run.update({ fileIndex: 1, bytesInFile: 10, records: 5 });
    run.fileFinished(1);
    run.finish({ records: 5 });
    assert.deepEqual(written, []);
  }
  const saved = process.env.TAE_PROGRESS_AFTER_MS;
  process.env.TAE_PROGRESS_AFTER_MS = '3600000';
  try {
    const { stream, written } = terminal();
    const run = new RunProgress({ command: 'parse', files: [A], stream });
    run.update({ fileIndex: 0, bytesInFile: 10, records: 5 });
    run.finish();
    assert.deepEqual(written, [], 'under the threshold: no line, no closing line');
  } finally {
    if (saved === undefined) delete process.env.TAE_PROGRESS_AFTER_MS;
    else process.env.TAE_PROGRESS_AFTER_MS = saved;
  }
});
