/**
 * Persistence: SQLite (through native/sqlite.ts) for tokens, file metadata, jobs and results;
 * a blob store for file contents; the event indexes of parse jobs. No plaintext of a private
 * file reaches this layer's disk.
 */
export { type BlobStore, type BlobWriter, diskBlobs, memoryBlobs } from './blobs.js';
export {
  type ContentReader,
  openContent,
  readContent,
  type UploadData,
  type WriteContentOptions,
  writeContent,
} from './content.js';
export { type FileRow, FileTable, type Visibility } from './files.js';
export { type IndexCacheLimits, IndexStore, type IndexTarget, indexAad, indexFileKey } from './indexes.js';
export { type JobRow, type JobStatus, JobTable, type NewJob } from './jobs.js';
export { type RecoveryReport, Store, type StoreOptions } from './open-store.js';
export { ownerOnlyDatabase } from './owner-only.js';
export { migrate, SCHEMA_VERSION } from './schema.js';
export type { SqliteDatabase } from './sqlite.js';
export { insertTokenBeside, type NewTokenRow, type TokenRow, TokenTable } from './tokens.js';
