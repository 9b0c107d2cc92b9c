/**
 * Deleting files and jobs: the one path an owner's delete and the retention sweep share, so
 * that neither leaves anything behind. Rows go first, in one transaction that checks every id
 * (a job's results and event index rows cascade); then what lives outside the database (blob
 * files, index files, a running job's runner); then the freed pages go back to the file system
 * and the write-ahead log is emptied (Store.checkpoint). A crash between the steps leaves
 * contents without rows, which the next open removes.
 */
import type { FileRow, JobRow } from '../store/index.js';
import type { ServiceContext } from './context.js';

/** Deletes the files if `accept` takes every row (null: no row); else returns the first refused id. */
export async function removeFiles(
  s: ServiceContext,
  ids: readonly string[],
  accept: (row: FileRow | null) => boolean,
): Promise<string | null> {
  const refused = s.store.files.deleteAllIf(ids, accept);
  if (refused !== null) return refused;
  await Promise.all(ids.map((id) => s.store.blobs.remove(id)));
  s.store.checkpoint();
  return null;
}

/** Deletes the jobs if `accept` takes every row; else returns the first refused id. */
export function removeJobs(
  s: ServiceContext,
  ids: readonly string[],
  accept: (row: JobRow | null) => boolean,
): string | null {
  const refused = s.store.jobs.deleteAllIf(ids, accept);
  if (refused !== null) return refused;
  for (const id of ids) {
    s.scheduler.forget(id); // a running one stops; its late result meets a guarded write
    s.store.indexes.remove(id); // its rows went with the job; this closes it and removes a file
  }
  s.store.checkpoint();
  return null;
}
