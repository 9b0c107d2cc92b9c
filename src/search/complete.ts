/**
 * The end of a build: staged events copied in time order, their indexes and trigram blocks
 * built, the job's files, rules and correlations written. It is the costly part, so it runs in
 * a worker thread (finish-worker.ts) and the service keeps answering meanwhile. The index is
 * completed in place, in its file, page by page: encrypted under the build's key when it has
 * one (a private job), with the staging file attached under the same key. With several blocks
 * and cores, the trigram blocks are built by several threads, from the start of the copy
 * (blocks.ts).
 */
import { closeSync, fdatasync, openSync, rmSync } from 'node:fs';
import {
  attachSqlite,
  createDatabaseFile,
  journalOff,
  openSqlite,
  type SqliteDatabase,
} from '../../native/sqlite.js';
import { debugLine } from '../errors/index.js';
import { buildAndMerge, startBuilders } from './block-threads.js';
import {
  type BlockPlan,
  blockPath,
  cancelled,
  closeGate,
  fillTextBlock,
  mergeBlockFile,
  openStageReader,
  openThroughGate,
  removeBlockFiles,
  throughGate,
} from './blocks.js';
import { copyStaged, INDEX_FORMAT, type IndexSchemaName, indexSchema, setBuildPageSize } from './schema.js';

/** The small tables, gathered in memory while the job ran. */
export interface IndexTables {
  readonly sigma: boolean;
  readonly events: number;
  readonly blockRows: number;
  /** [no, name, diagnostics JSON] */
  readonly files: readonly (readonly [number, string, string])[];
  /** [no, title, rule JSON] */
  readonly rules: readonly (readonly [number, string, string])[];
  /** [rule no, timestamp] */
  readonly correlations: readonly (readonly [number, number])[];
  /** [file no, record id, YARA rule] of payload matches */
  readonly yara: readonly (readonly [number, number, string])[];
}

export interface FinishTask {
  readonly path: string;
  /** The file key (32 bytes), or null for a plain file. */
  readonly key: Uint8Array | null;
  readonly tables: IndexTables;
  /** Threads that may build trigram blocks at once (this one included). */
  readonly blockThreads: number;
  /** Shared with the job's thread, which closes it before it removes a cancelled build's files (blocks.ts). */
  readonly gate: Int32Array;
}

export type FinishResult = { readonly kind: 'file' };

/** Page cache of each database a build writes (KiB): the build's memory, whatever its size. */
export const BUILD_CACHE_KIB = 32 * 1024;

/**
 * Settings of a database being built. No journal: a build that fails is thrown away whole.
 * Temporary storage in memory (set when keyed, and here for plain files too, so both behave
 * alike): the build statements never sort (schema.ts), so nothing big goes there.
 */
export function configure(db: SqliteDatabase, schema: 'main' | 'stage', cacheKib = BUILD_CACHE_KIB): void {
  journalOff(db, schema);
  db.pragma(`${schema}.synchronous = OFF`);
  db.pragma(`${schema}.cache_size = ${-Math.trunc(cacheKib)}`);
  db.pragma('temp_store = MEMORY');
}

export const stagePath = (path: string) => `${path}.stage`;

export function removeFile(path: string): void {
  for (const p of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}

export const keyOption = (key: Uint8Array | null) => (key === null ? {} : { key });

/**
 * The index file is `main`; the staging file is attached. Each statement commits on its own
 * (no outer transaction), so no statement journal grows with the job. The trigram blocks are
 * built by up to `blockThreads` threads (blocks.ts) when there are several.
 */
export async function completeIndex(task: FinishTask): Promise<FinishResult> {
  const started = performance.now();
  const { path, key, tables } = task;
  let flushing: Promise<void> | undefined;
  const blocks = Math.ceil(tables.events / tables.blockRows);
  const threads = Math.min(blocks, task.blockThreads);
  const plan: BlockPlan = {
    path,
    key,
    events: tables.events,
    blockRows: tables.blockRows,
    blocks,
    next: new Int32Array(new SharedArrayBuffer(4)),
    built: new Int32Array(new SharedArrayBuffer(4 * Math.max(1, blocks))),
    gate: task.gate,
    stage: stagePath(path),
  };
  try {
    const t0 = performance.now();
    let db = openIndex(plan, true);
    try {
      setBuildPageSize(db, 'main');
      db.exec(indexSchema('main'));
      if (threads <= 1) {
        for (const sql of copyStaged('main', 'stage')) db.exec(sql);
        flushing = flushEarly(path);
        const t1 = performance.now();
        const stage = openStageReader(plan);
        try {
          for (let k = 0; k < blocks; k++) {
            const from = k * tables.blockRows + 1;
            fillTextBlock(db, stage, k, from, Math.min(tables.events, from + tables.blockRows - 1));
          }
        } finally {
          stage.close();
        }
        debugLine(
          `index completion: ${tables.events} events, copy ${ms(t1 - t0)}, ${blocks} trigram blocks ${ms(performance.now() - t1)}`,
        );
      } else {
        const made = throughGate(plan.gate, () => {
          for (let k = 0; k < blocks; k++) createDatabaseFile(blockPath(path, k));
          return true;
        });
        if (made === null) throw cancelled();
        // The block builders read only the staging file: they start while this thread copies.
        const helpers = startBuilders(plan, threads - 1);
        try {
          for (const sql of copyStaged('main', 'stage')) db.exec(sql);
        } catch (e) {
          closeGate(plan.gate);
          await Promise.allSettled(helpers);
          throw e;
        }
        const t1 = performance.now();
        db.close(); // its page cache goes while this thread builds blocks too
        flushing = flushEarly(path);
        let merging = 0;
        await buildAndMerge(plan, helpers, (k) => {
          if (merging === 0) {
            merging = performance.now();
            db = openIndex(plan, false); // closed by the `finally` below, whatever happens next
          }
          mergeBlockFile(db, plan, k, removeFile);
        });
        debugLine(
          `index completion: ${tables.events} events, copy ${ms(t1 - t0)}, ${blocks} trigram blocks by ${threads} threads (from the start of the copy), moved into the index from ${ms(merging - t0)} to ${ms(performance.now() - t0)}`,
        );
      }
      db.exec('DETACH DATABASE stage');
      db.transaction(() => smallTables(db, 'main', tables, blocks))();
    } finally {
      db.close();
    }
  } catch (e) {
    closeGate(plan.gate); // builders still running stop, and open nothing more
    await flushing; // its descriptor is closed before the files go
    removeBlockFiles(path, removeFile);
    throw e;
  }
  await flushing;
  removeFile(stagePath(path));
  // bench/job.ts reads this line for the completion stage's events/s.
  debugLine(`index completion: ${tables.events} events in ${ms(performance.now() - started)}`);
  return { kind: 'file' };
}

/** Opens the index (`create`: made now) with the staging file attached, unless the build was cancelled. */
function openIndex(plan: BlockPlan, create: boolean): SqliteDatabase {
  return openThroughGate(
    plan.gate,
    () => openSqlite(plan.path, { ...keyOption(plan.key), mustExist: !create }),
    (c) => {
      configure(c, 'main');
      attachSqlite(c, stagePath(plan.path), 'stage', plan.key ?? undefined, { mustExist: true });
      configure(c, 'stage', BUILD_CACHE_KIB / 4);
    },
  );
}

const ms = (t: number) => `${Math.round(t)} ms`;

/**
 * Has the kernel write the index's pages so far to disk while this build goes on with the
 * trigram blocks (CPU work): the build writes without syncing, and the commit's fsync of a 1 GB
 * job's 630 MB index otherwise waited 0.3–1.2 s for all of it at the end, with every core idle.
 * One request on libuv's pool, which goes on while this thread is busy; it never rejects (the
 * commit's own fsync is the one that counts).
 */
function flushEarly(path: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve) =>
    fdatasync(fd, () => {
      try {
        closeSync(fd);
      } catch {}
      resolve();
    }),
  );
}

function smallTables(db: SqliteDatabase, ix: IndexSchemaName, t: IndexTables, blocks: number): void {
  const meta = db.prepare(`INSERT INTO ${ix}.meta VALUES (?, ?)`);
  for (const [k, v] of [
    ['format', INDEX_FORMAT],
    ['sigma', t.sigma ? 1 : 0],
    ['events', t.events],
    ['text_blocks', blocks],
    ['text_block_rows', t.blockRows],
  ] as const)
    meta.run(k, String(v));
  const file = db.prepare(`INSERT INTO ${ix}.files VALUES (?, ?, ?)`);
  for (const f of t.files) file.run(f);
  const rule = db.prepare(`INSERT INTO ${ix}.rules VALUES (?, ?, ?)`);
  for (const r of t.rules) rule.run(r);
  const corr = db.prepare(`INSERT INTO ${ix}.correlations VALUES (?, ?)`);
  for (const c of t.correlations) corr.run(c);
  const yara = db.prepare(`INSERT INTO ${ix}.yara VALUES (?, ?, ?)`);
  for (const y of t.yara) yara.run(y);
}
