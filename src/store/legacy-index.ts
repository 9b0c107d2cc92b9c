/**
 * Indexes in the layout before schema 3: a job's whole database image in `job_index_chunks`
 * rows, sealed under the job key (AES-GCM segments) for a private job. The engine cannot
 * convert them when it opens (it holds no job keys then), so each is converted on its first
 * search, when the owner's key is at hand: the image is opened (in memory, once, as the old
 * layout always did) and copied table by table into an index file (encrypted for a private
 * job); then the row becomes a file row and the chunks go (zeroed by secure_delete). Nothing
 * is lost: until that search the sealed image stays where it was.
 */
import { openSealedStream } from '../crypto/index.js';
import { attachSqlite, journalOff, openSqliteImage, type SqliteDatabase } from './sqlite.js';

export interface LegacyRow {
  sealed: number;
  plain_bytes: number;
}

export interface LegacyImage {
  readonly jobId: string;
  readonly row: LegacyRow;
  readonly chunks: readonly Buffer[];
  /** The job key, for a sealed image. */
  readonly sealedKey: Buffer | null;
  readonly aad: string;
}

/** Writes the legacy image as an index file at `target.path` (encrypted when it has a key). */
export async function convertLegacyImage(
  legacy: LegacyImage,
  target: { readonly path: string; readonly key: Buffer | null },
): Promise<void> {
  const image =
    legacy.row.sealed === 0
      ? Buffer.concat(legacy.chunks)
      : await openSealedStream(
          legacy.sealedKey!,
          legacy.aad,
          legacy.row.plain_bytes,
          fromArray(legacy.chunks),
        );
  const src = openSqliteImage(image); // SQLite keeps its own copy
  image.fill(0);
  try {
    src.pragma('temp_store = MEMORY');
    attachSqlite(src, target.path, 'file', target.key ?? undefined);
    journalOff(src, 'file');
    src.pragma('file.synchronous = OFF');
    src.unsafeMode(true); // the FTS5 shadow tables' rows are copied as they are
    copyAll(src);
  } finally {
    src.close();
  }
}

/** Every table, virtual table (with its shadow tables' rows) and index of `main`, into `file`. */
function copyAll(src: SqliteDatabase): void {
  const objects = src
    .prepare<[], { type: string; name: string; sql: string }>(
      `SELECT type, name, sql FROM main.sqlite_schema
       WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid`,
    )
    .all();
  const exists = src.prepare<[string], { x: number }>('SELECT 1 AS x FROM file.sqlite_schema WHERE name = ?');
  const into = (sql: string) =>
    sql.replace(/^CREATE (VIRTUAL TABLE|TABLE|UNIQUE INDEX|INDEX) /i, 'CREATE $1 file.');
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  src.transaction(() => {
    for (const o of objects) if (/^CREATE VIRTUAL TABLE /i.test(o.sql)) src.exec(into(o.sql));
    for (const o of objects) {
      if (o.type !== 'table' || /^CREATE VIRTUAL TABLE /i.test(o.sql)) continue;
      if (exists.get(o.name) === undefined) src.exec(into(o.sql)); // shadow tables exist already
      src.exec(`INSERT OR REPLACE INTO file.${quoted(o.name)} SELECT * FROM main.${quoted(o.name)}`);
    }
    for (const o of objects) if (o.type === 'index') src.exec(into(o.sql));
  })();
}

async function* fromArray(chunks: readonly Buffer[]): AsyncGenerator<Buffer> {
  yield* chunks;
}
