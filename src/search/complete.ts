/**
 * The end of a build: staged events copied in time order, their indexes and trigram blocks
 * built, the job's files, rules and correlations written. It is the costly part (about 28 s
 * for a million events), so it runs in a worker thread (finish-worker.ts) and the service
 * keeps answering meanwhile. The index is completed in place, in its file, page by page:
 * encrypted under the build's key when it has one (a private job), with the staging file
 * attached under the same key.
 */
import { rmSync } from 'node:fs';
import { attachSqlite, openSqlite, type SqliteDatabase } from '../../native/sqlite.js';
import { buildTextBlock, copyStaged, INDEX_FORMAT, type IndexSchemaName, indexSchema } from './schema.js';

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
  db.pragma(`${schema}.journal_mode = OFF`);
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
 * (no outer transaction), so no statement journal grows with the job.
 */
export function completeIndex(task: FinishTask): FinishResult {
  const { path, key, tables } = task;
  const db = openSqlite(path, keyOption(key));
  try {
    configure(db, 'main');
    attachSqlite(db, stagePath(path), 'stage', key ?? undefined);
    configure(db, 'stage', BUILD_CACHE_KIB / 4);
    db.exec(indexSchema('main'));
    for (const sql of copyStaged('main', 'stage')) db.exec(sql);
    const blocks = Math.ceil(tables.events / tables.blockRows);
    for (let k = 0; k < blocks; k++) {
      db.exec(buildTextBlock('main', k, k * tables.blockRows + 1, (k + 1) * tables.blockRows));
    }
    db.exec('DETACH DATABASE stage');
    db.transaction(() => smallTables(db, 'main', tables, blocks))();
  } finally {
    db.close();
  }
  removeFile(stagePath(path));
  return { kind: 'file' };
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
