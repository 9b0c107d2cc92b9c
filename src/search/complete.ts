/**
 * The end of a build: staged events copied in time order, their indexes and trigram blocks
 * built, the job's files, rules and correlations written. It is the costly part (about 28 s
 * for a million events), so it runs in a worker thread (finish-worker.ts) and the service
 * keeps answering meanwhile. A file build is completed in place; a memory build travels to the
 * worker as its staging database's image and comes back as the index's (copied between
 * threads, never written anywhere).
 */
import { rmSync } from 'node:fs';
import { openSqlite, openSqliteImage, type SqliteDatabase } from '../../native/sqlite.js';
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
}

export type FinishTask =
  | { readonly kind: 'file'; readonly path: string; readonly tables: IndexTables }
  | { readonly kind: 'memory'; readonly stage: Uint8Array; readonly tables: IndexTables };

export type FinishResult =
  | { readonly kind: 'file' }
  | { readonly kind: 'memory'; readonly image: Uint8Array };

export function configure(db: SqliteDatabase, schema: 'main' | 'stage', memory: boolean): void {
  db.pragma(`${schema}.journal_mode = OFF`); // a build that fails is thrown away whole
  db.pragma(`${schema}.synchronous = OFF`);
  db.pragma(`${schema}.cache_size = -65536`);
  // Sorts and temporary tables: in memory for a memory build, so no plaintext reaches disk.
  if (schema === 'main') db.pragma(`temp_store = ${memory ? 'MEMORY' : 'FILE'}`);
}

export const stagePath = (path: string) => `${path}.stage`;

export function removeFile(path: string): void {
  for (const p of [path, `${path}-journal`, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
}

export function completeIndex(task: FinishTask): FinishResult {
  return task.kind === 'file'
    ? completeFile(task.path, task.tables)
    : completeMemory(task.stage, task.tables);
}

/** The index file is `main`; the staging file is attached. */
function completeFile(path: string, tables: IndexTables): FinishResult {
  const db = openSqlite(path);
  try {
    configure(db, 'main', false);
    db.prepare('ATTACH DATABASE ? AS stage').run(stagePath(path));
    configure(db, 'stage', false);
    db.transaction(() => {
      db.exec(indexSchema('main'));
      db.exec(copyStaged('main', 'stage'));
      finishTables(db, 'main', tables);
    })();
    db.exec('DETACH DATABASE stage');
  } finally {
    db.close();
  }
  removeFile(stagePath(path));
  return { kind: 'file' };
}

/** The staging image is `main`; the index is built in an attached in-memory database. */
function completeMemory(stageImage: Uint8Array, tables: IndexTables): FinishResult {
  const db = openSqliteImage(stageImage);
  try {
    db.pragma('temp_store = MEMORY');
    db.exec("ATTACH DATABASE ':memory:' AS final");
    db.transaction(() => {
      db.exec(indexSchema('final'));
      db.exec(copyStaged('final', 'main'));
      finishTables(db, 'final', tables);
    })();
    return { kind: 'memory', image: db.serialize({ attached: 'final' }) };
  } finally {
    db.close();
  }
}

function finishTables(db: SqliteDatabase, ix: IndexSchemaName, t: IndexTables): void {
  const blocks = Math.ceil(t.events / t.blockRows);
  for (let k = 0; k < blocks; k++) db.exec(buildTextBlock(ix, k, k * t.blockRows + 1, (k + 1) * t.blockRows));
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
}
