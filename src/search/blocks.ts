/**
 * The trigram blocks of a build, built in parallel. Each block is independent (its own rows of
 * `events_grams`), and building one is the slowest part of a completion, so up to `threads`
 * builders (the completing thread and worker threads: block-threads.ts) each take the next
 * block and build it into a database file of its own beside the index, `<index>.block-<k>`,
 * encrypted page by page under the build's key. A builder reads only the staging file (its rows
 * in result order: schema.ts, 'staged'), so the workers start while the completing thread
 * copies the events into the index. Once the completing thread finds no block left to take, its
 * connection copies each block file's rows into the index, block by block in order as each is
 * built (while the helpers build the last ones), then deletes the file.
 *
 * Files are opened only through the gate: a cancelled build closes it before it removes the
 * files, and nothing opens (and so re-creates) a file afterwards. Builders also stop between
 * slices of their block once it is closed.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { attachSqlite, journalOff, openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import { TaeError } from '../errors/index.js';
import { GramBuilder } from './grams.js';
import { buildGramBlock, gramsSchema, type IndexSchemaName, setBuildPageSize } from './schema.js';

/** What the builders of one completion share. */
export interface BlockPlan {
  readonly path: string;
  readonly key: Uint8Array | null;
  readonly events: number;
  readonly blockRows: number;
  readonly blocks: number;
  /** [next block to take] */
  readonly next: Int32Array;
  /** One word per block: 1 once its file is complete (`blockBuilt` waits for it). */
  readonly built: Int32Array;
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

/**
 * A connection opened and set up through the gate, closed again when its setup fails; a closed
 * gate (the build cancelled or failed) throws CANCELLED.
 */
export function openThroughGate(
  gate: Int32Array,
  open: () => SqliteDatabase,
  setUp: (c: SqliteDatabase) => void,
): SqliteDatabase {
  const db = throughGate(gate, () => {
    const c = open();
    try {
      setUp(c);
      return c;
    } catch (e) {
      c.close();
      throw e;
    }
  });
  if (db === null) throw cancelled();
  return db;
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
 * Page caches of one builder (KiB): the block file it writes and the staging file it reads in
 * index order.
 */
export const BLOCK_CACHE_KIB = 4096;
const READ_CACHE_KIB = 2048;

export const cancelled = () => new TaeError('CANCELLED', 'index build cancelled');

/** Takes blocks until none is left, building each into its file. */
export function buildClaimedBlocks(plan: BlockPlan): void {
  for (;;) {
    const k = Atomics.add(plan.next, 0, 1);
    if (k >= plan.blocks) return;
    buildBlockFile(plan, k);
    Atomics.store(plan.built, k, 1);
    Atomics.notify(plan.built, k);
  }
}

/** Resolves once block `k`'s file is complete (never, if its builder fails: race it with that). */
export async function blockBuilt(plan: Pick<BlockPlan, 'built'>, k: number): Promise<void> {
  while (Atomics.load(plan.built, k) === 0) {
    const wait = Atomics.waitAsync(plan.built, k, 0);
    if (wait.async) await wait.value;
  }
}

/** Builds block `k` into its file (opened as `main`), reading the staging file. */
function buildBlockFile(plan: BlockPlan, k: number): void {
  const key = plan.key ?? undefined;
  const db = openThroughGate(
    plan.gate,
    () => openSqlite(blockPath(plan.path, k), { ...(key ? { key } : {}), mustExist: true }),
    (c) => {
      journalOff(c, 'main');
      c.pragma('main.synchronous = OFF');
      c.pragma(`main.cache_size = ${-BLOCK_CACHE_KIB}`);
      c.pragma('temp_store = MEMORY');
      setBuildPageSize(c, 'main');
    },
  );
  try {
    const stage = openStageReader(plan);
    try {
      const from = k * plan.blockRows + 1;
      fillTextBlock(db, stage, k, from, Math.min(plan.events, from + plan.blockRows - 1), () =>
        gateClosed(plan.gate),
      );
    } finally {
      stage.close();
    }
  } finally {
    db.close();
  }
}

/**
 * A read-only connection of its own to the staging file: a block streams its rows from it, one
 * at a time, while the builder's connection writes (better-sqlite3 allows no write on a
 * connection with a statement still reading).
 */
export function openStageReader(plan: Pick<BlockPlan, 'stage' | 'key' | 'gate'>): SqliteDatabase {
  const key = plan.key ?? undefined;
  return openThroughGate(
    plan.gate,
    () => openSqlite(plan.stage, { ...(key ? { key } : {}), readonly: true }),
    (c) => {
      c.pragma('temp_store = MEMORY');
      c.pragma(`cache_size = ${-READ_CACHE_KIB}`);
    },
  );
}

/** This thread's builder: its buffers (about 6 MiB) serve every block the thread builds. */
let builder: GramBuilder | undefined;

/** Rows between two looks at `stop`. */
const STOP_EVERY = 4096;

/**
 * Builds block `k` over rows [from, to] into `main` of `db` (the index, or a block file), from
 * the staged rows in result order read on `stage`; `stop` is asked every STOP_EVERY rows.
 */
export function fillTextBlock(
  db: SqliteDatabase,
  stage: SqliteDatabase,
  k: number,
  from: number,
  to: number,
  stop: () => boolean = () => false,
): void {
  db.exec(gramsSchema('main'));
  const [read, store] = buildGramBlock('main');
  const insert = db.prepare(store);
  builder ??= new GramBuilder(from - 1);
  const grams = builder;
  grams.restart(from - 1);
  let part = 0;
  const flush = () => {
    grams.drain((gram, postings) =>
      insert.run(k, gram, part, Buffer.from(postings.buffer, postings.byteOffset, postings.byteLength)),
    );
    part++;
  };
  let n = from - 1;
  db.exec('BEGIN');
  try {
    for (const body of stage
      .prepare(read)
      .pluck()
      .iterate(to - from + 1, from - 1) as Iterable<string>) {
      if (++n % STOP_EVERY === 0 && stop()) throw cancelled();
      grams.add(n, body);
      if (grams.full) flush();
    }
    if (n !== to)
      throw new TaeError('INTERNAL', `trigram block ${k}: rows ${from}..${n} staged, ${to} expected`);
    if (stop()) throw cancelled();
    flush();
    db.exec('COMMIT');
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}

/** Moves block `k`'s postings from its file into the index open as `main`, then deletes the file. */
export function mergeBlockFile(db: SqliteDatabase, plan: BlockPlan, k: number, remove: (p: string) => void) {
  const ix: IndexSchemaName = 'main';
  const file = blockPath(plan.path, k);
  const attached = throughGate(plan.gate, () =>
    attachSqlite(db, file, 'block', plan.key ?? undefined, { mustExist: true }),
  );
  if (attached === null) throw cancelled();
  try {
    db.exec(`INSERT INTO ${ix}.events_grams SELECT * FROM block.events_grams ORDER BY block, gram, part`);
  } finally {
    db.exec('DETACH DATABASE block');
  }
  remove(file);
}
