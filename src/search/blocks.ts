/**
 * The trigram blocks of a build, built in parallel. Each block is independent (its own FTS5
 * table over its own rows), and building one is the slowest part of a completion (6–7 s per
 * 131,072 rows on one core), so up to `threads` builders (the completing thread and worker
 * threads: block-threads.ts) each take the next block and build it into a database file of its
 * own beside the index, `<index>.block-<k>`, encrypted page by page under the build's key. A
 * builder reads only the staging file (its rows in result order: schema.ts, 'staged'), so the
 * workers start while the completing thread copies the events into the index. Then the
 * completing connection, block by block in order, makes the table in the index and copies the
 * block file's FTS5 shadow tables into it, then deletes the file.
 *
 * Files are opened only through the gate: a cancelled build closes it before it removes the
 * files, and nothing opens (and so re-creates) a file afterwards. Builders also stop between
 * slices of their block once it is closed.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { attachSqlite, openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import { TaeError } from '../errors/index.js';
import { buildTextBlock, type IndexSchemaName, ROW_NUMBER_FUNCTION, textBlock } from './schema.js';

/** What the builders of one completion share. */
export interface BlockPlan {
  readonly path: string;
  readonly key: Uint8Array | null;
  readonly events: number;
  readonly blockRows: number;
  readonly blocks: number;
  /** [next block to take] */
  readonly next: Int32Array;
  readonly gate: Int32Array;
  /** The staging file. */
  readonly stage: string;
}

export const blockPath = (path: string, k: number) => `${path}.block-${Math.trunc(k)}`;

/** Removes the block files of the index at `path` (whatever their number). */
export function removeBlockFiles(path: string, remove: (p: string) => void): void {
  const prefix = `${basename(path)}.block-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) remove(join(dirname(path), name));
}

/**
 * Two shared words: [closed (1 once the build is cancelled or failed), threads opening files].
 * An opener counts itself in, then checks `closed`; a closer sets `closed`, then waits until no
 * thread is opening. A thread terminated while opening never counts itself out, so the wait is
 * bounded: a live opener is done within milliseconds, a dead one opens nothing more.
 */
export const newGate = (): Int32Array => new Int32Array(new SharedArrayBuffer(8));
export const gateClosed = (gate: Int32Array) => Atomics.load(gate, 0) === 1;
const OPENERS_WAIT_MS = 2000;

/** Runs `open` unless the gate is closed (then null). */
export function throughGate<T>(gate: Int32Array, open: () => T): T | null {
  Atomics.add(gate, 1, 1);
  try {
    return gateClosed(gate) ? null : open();
  } finally {
    Atomics.sub(gate, 1, 1);
    Atomics.notify(gate, 1);
  }
}

/** Closes the gate (on a builder thread): on return, no live thread is opening a file, and none will. */
export function closeGate(gate: Int32Array): void {
  Atomics.store(gate, 0, 1);
  const until = Date.now() + OPENERS_WAIT_MS;
  for (let n = Atomics.load(gate, 1); n > 0 && Date.now() < until; n = Atomics.load(gate, 1))
    Atomics.wait(gate, 1, n, 10);
}

/** closeGate for the job's thread, which must not block. */
export async function closeGateAsync(gate: Int32Array): Promise<void> {
  Atomics.store(gate, 0, 1);
  const until = Date.now() + OPENERS_WAIT_MS;
  for (let n = Atomics.load(gate, 1); n > 0 && Date.now() < until; n = Atomics.load(gate, 1))
    await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Page caches of one builder (KiB): the block file it writes (FTS5 appends segments and its
 * final merge reads them in order) and the staging file it reads in index order.
 */
export const BLOCK_CACHE_KIB = 4096;
const READ_CACHE_KIB = 2048;
/**
 * FTS5's pending-terms hash of a builder (bytes; FTS5's default is 1 MiB): fewer, bigger segments
 * to merge. One 131,072-row block took 6.8 s with 1 MiB, 6.3 s with 8 and 6.1–6.4 s with 16: 8
 * keeps the time and leaves the job's peak memory 8 MiB per builder lower.
 */
export const BLOCK_HASH_BYTES = 8 << 20;
/** Rows per bulk-load statement: a cancelled builder stops after the slice it is in. */
const SLICE_ROWS = 16_384;

export const cancelled = () => new TaeError('CANCELLED', 'index build cancelled');

/** Takes blocks until none is left, building each into its file. */
export function buildClaimedBlocks(plan: BlockPlan): void {
  for (;;) {
    const k = Atomics.add(plan.next, 0, 1);
    if (k >= plan.blocks) return;
    buildBlockFile(plan, k);
  }
}

/** Builds block `k` into its file, the block file as `main` and the staging file attached. */
function buildBlockFile(plan: BlockPlan, k: number): void {
  const key = plan.key ?? undefined;
  const db = throughGate(plan.gate, () => {
    const c = openSqlite(blockPath(plan.path, k), { ...(key ? { key } : {}), mustExist: true });
    try {
      c.pragma('main.journal_mode = OFF');
      c.pragma('main.synchronous = OFF');
      c.pragma(`main.cache_size = ${-BLOCK_CACHE_KIB}`);
      c.pragma('temp_store = MEMORY');
      attachSqlite(c, plan.stage, 'stage', key, { mustExist: true });
      c.pragma(`stage.cache_size = ${-READ_CACHE_KIB}`);
      return c;
    } catch (e) {
      c.close();
      throw e;
    }
  });
  if (db === null) throw cancelled();
  try {
    const from = k * plan.blockRows + 1;
    fillTextBlock(db, k, from, Math.min(plan.events, from + plan.blockRows - 1), 'staged', () =>
      gateClosed(plan.gate),
    );
  } finally {
    db.close();
  }
}

/**
 * Builds block `k` over rows [from, to] into `main` (the index, from `events`, or a block
 * file, from the staged rows), the staging file attached; `stop` is asked between slices.
 */
export function fillTextBlock(
  db: SqliteDatabase,
  k: number,
  from: number,
  to: number,
  source: 'events' | 'staged',
  stop: () => boolean = () => false,
): void {
  const t = textBlock(k);
  const [create, load, optimize] = buildTextBlock('main', k, source);
  db.exec(create);
  db.exec(`INSERT INTO main.${t}(${t}, rank) VALUES ('hashsize', ${BLOCK_HASH_BYTES})`);
  let n = 0;
  if (source === 'staged') db.function(ROW_NUMBER_FUNCTION, { deterministic: false }, () => ++n);
  const slice = db.prepare(load);
  db.exec('BEGIN');
  try {
    for (let a = from; a <= to; a += SLICE_ROWS) {
      if (stop()) throw cancelled();
      const b = Math.min(to, a + SLICE_ROWS - 1);
      if (source === 'events') slice.run(a, b);
      else {
        n = a - 1;
        slice.run(b - a + 1, a - 1);
        if (n !== b)
          throw new TaeError('INTERNAL', `trigram block ${k}: rows ${a}..${n} staged, ${b} expected`);
      }
    }
    db.exec('COMMIT');
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  if (stop()) throw cancelled();
  db.exec(optimize);
  // The pending-terms size was the build's; the index keeps FTS5's default.
  db.unsafeMode(true);
  try {
    db.exec(`DELETE FROM main.${t}_config WHERE k = 'hashsize'`);
  } finally {
    db.unsafeMode(false);
  }
}

/**
 * Moves block `k`'s trigram index from its file into the index open as `main` (its shadow
 * tables' rows, as they are: the table is contentless, without column sizes, so it has only
 * `_data`, `_idx` and `_config`), then deletes the file.
 */
export function mergeBlockFile(db: SqliteDatabase, plan: BlockPlan, k: number, remove: (p: string) => void) {
  const ix: IndexSchemaName = 'main';
  const file = blockPath(plan.path, k);
  const attached = throughGate(plan.gate, () =>
    attachSqlite(db, file, 'block', plan.key ?? undefined, { mustExist: true }),
  );
  if (attached === null) throw cancelled();
  const t = textBlock(k);
  const [create] = buildTextBlock(ix, k);
  db.unsafeMode(true); // rows of shadow tables are written as they are
  try {
    db.transaction(() => {
      db.exec(create);
      for (const shadow of ['data', 'idx', 'config']) {
        db.exec(`DELETE FROM ${ix}.${t}_${shadow}`);
        db.exec(`INSERT INTO ${ix}.${t}_${shadow} SELECT * FROM block.${t}_${shadow}`);
      }
    })();
  } finally {
    db.unsafeMode(false);
    db.exec('DETACH DATABASE block');
  }
  remove(file);
}
