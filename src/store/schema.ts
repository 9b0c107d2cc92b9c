/**
 * The database schema as ordered migrations; `PRAGMA user_version` records how many have run.
 * Append a migration to change the schema, never edit a shipped one.
 */
import { TaeError } from '../errors/index.js';
import type { SqliteDatabase } from './sqlite.js';

const MIGRATIONS: readonly string[] = [
  // 1: tokens, files, jobs, job results.
  `
  CREATE TABLE tokens (
    -- SHA-256 of the token (crypto tokenDigest): the database holds no usable bearer token.
    id         TEXT PRIMARY KEY,
    level      TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    key_salt   BLOB NOT NULL,
    -- HMAC of the owner key; NULL until the first private write binds the token's key.
    key_check  BLOB
  ) STRICT;

  CREATE TABLE files (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    owner       TEXT REFERENCES tokens(id),
    name        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    visibility  TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
    size        INTEGER NOT NULL,
    -- The per-file data key sealed under the owner key; NULL for unencrypted files.
    wrapped_key BLOB,
    CHECK ((visibility = 'private') = (wrapped_key IS NOT NULL))
  ) STRICT;
  CREATE INDEX files_by_owner ON files(owner, seq);

  CREATE TABLE jobs (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    owner       TEXT REFERENCES tokens(id),
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('Pending', 'Processing', 'Completed', 'Failed')),
    priority    INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    visibility  TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
    -- JSON of the request (public) or that JSON sealed under the job key (private).
    input       BLOB NOT NULL,
    wrapped_key BLOB,
    -- 1: a private job whose owner key is not in memory (after a restart); it waits for a poll.
    needs_key   INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    started_at  INTEGER,
    finished_at INTEGER,
    CHECK ((visibility = 'private') = (wrapped_key IS NOT NULL))
  ) STRICT;
  CREATE UNIQUE INDEX jobs_name_per_owner ON jobs(COALESCE(owner, ''), name);
  CREATE INDEX jobs_by_owner ON jobs(owner, seq);
  CREATE INDEX jobs_queue ON jobs(priority DESC, seq) WHERE status = 'Pending' AND needs_key = 0;

  CREATE TABLE job_results (
    job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    -- Insights JSON (public) or that JSON sealed under the job key (private).
    body   BLOB NOT NULL
  ) STRICT;
  `,
  // 2: event indexes of parse jobs (see indexes.ts); they go with their job.
  `
  CREATE TABLE job_indexes (
    job_id      TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    -- 'file': <dataDir>/indexes/<job id>.sqlite; 'image': the chunks below.
    kind        TEXT NOT NULL CHECK (kind IN ('file', 'image')),
    -- 1: the image is sealed under the job key (a private job).
    sealed      INTEGER NOT NULL,
    plain_bytes INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE job_index_chunks (
    job_id TEXT NOT NULL REFERENCES job_indexes(job_id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    body   BLOB NOT NULL,
    PRIMARY KEY (job_id, seq)
  ) STRICT;
  `,
  // 3: every index is a file (kind 'file'); sealed = 1 now means a file encrypted under a key
  // derived from the job key (indexes.ts). Rows of kind 'image' (sealed images in the chunks
  // above) are kept as they are and converted on their first search, when the job key is at
  // hand (legacy-index.ts): the engine holds no job keys when it opens. The version step keeps
  // an older engine, which would read an encrypted file as plain, from opening this directory.
  `
  CREATE INDEX job_indexes_legacy ON job_indexes(job_id) WHERE kind = 'image';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: SqliteDatabase): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new TaeError(
      'INPUT_UNREADABLE',
      `the data directory was written by a newer engine (schema ${current}, this engine knows ${SCHEMA_VERSION})`,
      { context: { schema: current, known: SCHEMA_VERSION } },
    );
  }
  for (let v = current; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
