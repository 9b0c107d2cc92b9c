/**
 * Rows put in time order with bounded memory (`tae sigma` listings, issue 47): rows arrive in
 * file order, and an analyst reading 50 hosts' detections wants one timeline. They gather in
 * memory up to a bound (32,768 rows or 32 Mi characters); past it, the gathered rows are
 * sorted and written as a run to a temporary file, and at the end the runs are merged, each
 * read a MiB at a time. Memory holds one run and one MiB per run, whatever the total (the four
 * 238 MiB bench files give 382,601 matches: 12 runs).
 *
 * Runs hold attacker-written event text: each is encrypted (AES-256-CTR) under a key made for
 * it and held only in memory, in an owner-only directory removed at the end or on exit; one a
 * SIGKILL leaves is swept by the next run (src/search/temp-dirs.ts) and cannot be read.
 * Ties keep their order of arrival, so the output is the same from run to run.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { makeTempDir } from '../library/index.js';
import { Heap } from './heap.js';
import type { Row } from './records.js';

export const RUN_BOUNDS = { rows: 8192, chars: 8 * 1024 * 1024 };
const BATCH = 1024;
/** Runs merged at once; past it they are merged into one run first, so open files stay few. */
const MAX_RUNS = 64;
const READ_BYTES = 64 * 1024;

interface Item {
  /** Unix ms; rows without a time sort last. */
  readonly ts: number;
  readonly seq: number;
  readonly row: Row;
}

const before = (a: Item, b: Item) => a.ts - b.ts || a.seq - b.seq;

interface Run {
  readonly path: string;
  readonly key: Buffer;
  readonly iv: Buffer;
}

export class TimeOrder {
  private items: Item[] = [];
  private chars = 0;
  private seq = 0;
  private made = 0;
  private readonly runs: Run[] = [];
  private dir: string | undefined;
  private readonly removeDir = () => {
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  };

  constructor(private readonly bounds: { rows: number; chars: number } = RUN_BOUNDS) {}

  /** `chars` is about how much text the row holds (its evidence, mostly). */
  add(ts: number, row: Row, chars: number): void {
    this.items.push({ ts: Number.isFinite(ts) ? ts : Number.MAX_VALUE, seq: this.seq++, row });
    this.chars += chars;
    if (this.items.length >= this.bounds.rows || this.chars >= this.bounds.chars) this.spill();
  }

  /** How many runs went to disk (for the tests). */
  get spilled(): number {
    return this.runs.length;
  }

  /** Every row in time order, in batches; then the runs are removed. */
  *sorted(): Generator<Row[]> {
    try {
      if (this.runs.length === 0) {
        const items = this.items.sort(before);
        this.items = [];
        for (let at = 0; at < items.length; at += BATCH) yield items.slice(at, at + BATCH).map((i) => i.row);
        return;
      }
      this.spill();
      yield* this.merged();
    } finally {
      this.close();
    }
  }

  close(): void {
    this.removeDir();
    this.dir = undefined;
    process.off('exit', this.removeDir);
  }

  private spill(): void {
    if (this.items.length === 0) return;
    if (this.dir === undefined) {
      this.dir = makeTempDir('sort');
      process.on('exit', this.removeDir);
    }
    const items = this.items.sort(before);
    this.items = [];
    this.chars = 0;
    this.runs.push(this.write([items]));
    if (this.runs.length >= MAX_RUNS) {
      const runs = this.runs.splice(0);
      this.runs.push(this.write(mergeRuns(runs, BATCH)));
      for (const r of runs) rmSync(r.path, { force: true });
    }
  }

  /** A new run of the items the batches hold, in order. */
  private write(batches: Iterable<readonly Item[]>): Run {
    const run: Run = {
      path: join(this.dir!, `run-${this.made++}`),
      key: randomBytes(32),
      iv: randomBytes(16),
    };
    const cipher = createCipheriv('aes-256-ctr', run.key, run.iv);
    const fd = openSync(run.path, 'wx', 0o600);
    try {
      for (const items of batches) {
        const text = items.map((i) => `${JSON.stringify([i.ts, i.seq, i.row])}\n`).join('');
        writeSync(fd, cipher.update(text, 'utf8'));
      }
      writeSync(fd, cipher.final());
    } finally {
      closeSync(fd);
    }
    return run;
  }

  private *merged(): Generator<Row[]> {
    for (const items of mergeRuns(this.runs, BATCH)) yield items.map((i) => i.row);
  }
}

/** The items of sorted runs, merged in order, `batch` at a time. */
function* mergeRuns(runs: readonly Run[], batch: number): Generator<Item[]> {
  const heap = new Heap<{ item: Item; from: Generator<Item> }>((a, b) => before(a.item, b.item) < 0);
  for (const from of runs.map(readRun)) {
    const first = from.next();
    if (!first.done) heap.push({ item: first.value, from });
  }
  let items: Item[] = [];
  for (let top = heap.pop(); top !== undefined; top = heap.pop()) {
    items.push(top.item);
    const next = top.from.next();
    if (!next.done) heap.push({ item: next.value, from: top.from });
    if (items.length >= batch) {
      yield items;
      items = [];
    }
  }
  if (items.length > 0) yield items;
}

/** A run's items in order, decrypted and split 64 KiB at a time. */
function* readRun(run: Run): Generator<Item> {
  const fd = openSync(run.path, 'r');
  try {
    const decipher = createDecipheriv('aes-256-ctr', run.key, run.iv);
    const text = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let rest = '';
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      const lines = (rest + text.write(decipher.update(buffer.subarray(0, n)))).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const [ts, seq, row] = JSON.parse(line) as [number, number, Row];
        yield { ts, seq, row };
      }
    }
  } finally {
    closeSync(fd);
  }
}
