/**
 * Where a build's staged events are written: on this thread, or (once the build is large, see
 * EventIndexBuilder) on a writer thread of their own (stage-worker.ts) that makes each row and
 * inserts it, so the job's thread only hands events on. Either way the staging file is `<path>.stage`, encrypted under the build's key,
 * through a bounded page cache; at most two batches wait for the writer (`ready`), so memory
 * does not grow when the writer falls behind.
 */
import { Worker } from 'node:worker_threads';
import { openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import type { DescribeEvent } from '../analysis/index.js';
import { fromThreadFailure, TaeError, type ThreadFailure, threadFailure } from '../errors/index.js';
import type { EvtxEvent } from '../evtx/index.js';
import { indexRow, type PackedRows, type RowRef } from '../rows/index.js';
import { BUILD_CACHE_KIB, configure, keyOption, stagePath } from './complete.js';
import { packedEvent, stagedValues } from './packed.js';
import { STAGE_SCHEMA, setBuildPageSize } from './schema.js';
import { toWire, type WireBatch } from './stage-wire.js';

/**
 * One new event: arrival number, file number, matched rule numbers and titles, and the event, or
 * the packed rows of its chunk and its position there (rows/pack.ts; -1 with an event). Flat, so
 * that a batch crosses to the writer thread without an object per event but its tuple.
 */
export type StagedEvent = readonly [
  seq: number,
  file: number,
  ruleNos: readonly number[],
  titles: readonly string[],
  event: EvtxEvent | PackedRows,
  at: number,
];
/** One duplicate record: arrival number, file number, the event or its chunk's rows and position. */
export type StagedDuplicate = readonly [seq: number, file: number, event: EvtxEvent | PackedRows, at: number];

export const isRowRef = (x: EvtxEvent | RowRef): x is RowRef => 'packed' in x;

export interface Stager {
  /**
   * `open`: the rows a later batch may still take rows of (the chunk being added); every other
   * packed row set the batch holds is the writer's from now on (a writer thread gets its buffers
   * moved, not copied).
   */
  write(events: readonly StagedEvent[], duplicates: readonly StagedDuplicate[], open?: PackedRows): void;
  /** Resolves when the writer can take more (at once for an in-thread stager). */
  ready(): Promise<void>;
  /** Everything written is in the staging file, which is closed. */
  close(): Promise<void>;
  /**
   * Stops at once: a `ready` or `close` still waiting rejects. Resolves once nothing holds the
   * staging file open (a writer thread has ended), so the caller can remove it and have its
   * space back: a file removed while a descriptor still holds it keeps its blocks.
   */
  abort(): Promise<void>;
}

/**
 * Opens `<path>.stage` and prepares the inserts (for either thread): a new one, or (`fresh`
 * false) the one another stager closed, to go on appending.
 */
export function openStage(
  path: string,
  key: Uint8Array | null,
  describe: DescribeEvent | undefined,
  fresh = true,
) {
  const db: SqliteDatabase = openSqlite(stagePath(path), keyOption(key));
  try {
    // Inserts append to the table and to `staged_order` at one point per file: the pages being
    // written are few, so 8 MiB serves them (the 1 GB job's stage thread took the same CPU as
    // with 16) and leaves the job's peak within its bound.
    configure(db, 'main', BUILD_CACHE_KIB / 4);
    if (fresh) {
      setBuildPageSize(db, 'main');
      db.exec(STAGE_SCHEMA);
    }
    const insert = db.prepare('INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const insertDuplicate = db.prepare('INSERT INTO staged_duplicates VALUES (?, ?, ?, ?)');
    const write = db.transaction((events: readonly StagedEvent[], duplicates: readonly StagedDuplicate[]) => {
      for (const [seq, file, ruleNos, titles, e, at] of events)
        insert.run([
          seq,
          ...(at >= 0
            ? stagedValues(e as PackedRows, at, file, ruleNos, titles)
            : indexRow(e as EvtxEvent, file, ruleNos, titles, describe)),
        ]);
      for (const [seq, file, source, at] of duplicates) {
        const e = at >= 0 ? packedEvent(source as PackedRows, at) : (source as EvtxEvent);
        insertDuplicate.run([
          seq,
          Number.isFinite(e.timestamp) ? e.timestamp : null,
          file,
          JSON.stringify(e),
        ]);
      }
    });
    return { db, write };
  } catch (e) {
    db.close();
    throw e;
  }
}

export function inThreadStager(path: string, key: Uint8Array | null, describe?: DescribeEvent): Stager {
  const { db, write } = openStage(path, key, describe);
  return {
    write,
    ready: async () => {},
    close: async () => {
      db.close();
    },
    abort: async () => {
      if (db.open) db.close();
    },
  };
}

const workerUrl = new URL(
  `./stage-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);

/** The buffers a batch moves to the writer: its numbers', and its packs' but `open`'s (a later batch still takes rows of it). */
function movableBuffers(batch: WireBatch, open: PackedRows | undefined): ArrayBuffer[] {
  const buffers = [batch.numbers.buffer as ArrayBuffer, batch.duplicateNumbers.buffer as ArrayBuffer];
  for (const p of batch.packs)
    if (p !== open) buffers.push(p.nums.buffer as ArrayBuffer, p.bytes.buffer as ArrayBuffer);
  return buffers;
}

/** Batches that may wait for the writer before `ready` holds the job back. */
const MAX_WAITING = 2;

/** What the writer thread says back. */
export type WriterReply =
  | { readonly kind: 'opened' }
  | { readonly kind: 'written' }
  | { readonly kind: 'closed' }
  | { readonly kind: 'failed'; readonly failure: ThreadFailure };

/** A writer thread; `builtinDescribe`: messages from the built-in lookup data (else none). */
export function threadStager(path: string, key: Uint8Array | null, builtinDescribe: boolean): Stager {
  const worker = new Worker(workerUrl, {
    name: 'tae-index-stage', // the thread's name, for per-thread figures (bench/threads.ts)
    workerData: { path, key: key === null ? null : Uint8Array.from(key), builtinDescribe },
    // Each batch dies young; SQLite's memory is its own (bounded page caches).
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  let waiting = 0;
  let failure: TaeError | undefined;
  let wake: (() => void) | undefined;
  let closed: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  /** The thread's end (`abort`): its SQLite connection, and so its descriptor of the file, is gone. */
  let ended: Promise<void> | undefined;
  const stop = (e: TaeError) => {
    failure ??= e;
    wake?.();
    closed?.reject(failure);
  };
  const fail = (f: ThreadFailure) => stop(fromThreadFailure(f, 'event index staging failed'));
  worker.on('message', (m: WriterReply) => {
    switch (m.kind) {
      case 'opened':
        return;
      case 'written':
        waiting--;
        wake?.();
        return;
      case 'closed':
        finished = true;
        closed?.resolve();
        return;
      case 'failed':
        fail(m.failure);
        return;
      default:
        m satisfies never;
    }
  });
  worker.on('error', (e) => fail(threadFailure(e)));
  let finished = false;
  worker.on('exit', (code) => {
    if (!finished) fail(threadFailure(`writer thread exited (${code})`));
  });
  const check = () => {
    if (failure !== undefined) throw failure;
  };
  return {
    write(events, duplicates, open) {
      check();
      waiting++;
      const batch = toWire(events, duplicates);
      worker.postMessage({ kind: 'write', batch }, movableBuffers(batch, open));
    },
    async ready() {
      while (waiting > MAX_WAITING && failure === undefined)
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      check();
    },
    async close() {
      check();
      const done = new Promise<void>((resolve, reject) => {
        closed = { resolve, reject };
      });
      worker.postMessage({ kind: 'close' });
      await done;
      await worker.terminate();
    },
    abort() {
      finished = true;
      stop(new TaeError('CANCELLED', 'event index staging stopped'));
      // A terminated thread's environment closes its databases before `terminate` settles.
      ended ??= worker.terminate().then(
        () => {},
        () => {},
      );
      return ended;
    },
  };
}
