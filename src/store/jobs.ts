/**
 * Job rows and results. Every state change is one statement or transaction guarded by the
 * state it leaves, so a late writer (a runner finishing after its job was cancelled or
 * deleted) changes nothing.
 */
import type { Visibility } from './files.js';
import type { SqliteDatabase } from './sqlite.js';

export type JobStatus = 'Pending' | 'Processing' | 'Completed' | 'Failed';

export interface JobRow {
  readonly id: string;
  readonly owner: string | null;
  readonly name: string;
  readonly type: string;
  readonly status: JobStatus;
  readonly priority: number;
  readonly createdAt: number;
  readonly visibility: Visibility;
  readonly input: Buffer;
  readonly wrappedKey: Buffer | null;
  readonly needsKey: boolean;
  readonly attempts: number;
}

export type NewJob = Omit<JobRow, 'name' | 'status' | 'needsKey' | 'attempts'>;

interface Raw {
  id: string;
  owner: string | null;
  name: string;
  type: string;
  status: JobStatus;
  priority: number;
  created_at: number;
  visibility: Visibility;
  input: Buffer;
  wrapped_key: Buffer | null;
  needs_key: number;
  attempts: number;
}

const toRow = (r: Raw): JobRow => ({
  id: r.id,
  owner: r.owner,
  name: r.name,
  type: r.type,
  status: r.status,
  priority: r.priority,
  createdAt: r.created_at,
  visibility: r.visibility,
  input: r.input,
  wrappedKey: r.wrapped_key,
  needsKey: r.needs_key === 1,
  attempts: r.attempts,
});

export class JobTable {
  private readonly s;

  constructor(private readonly db: SqliteDatabase) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO jobs (id, owner, name, type, status, priority, created_at, visibility, input, wrapped_key)
         VALUES (@id, @owner, @name, @type, 'Pending', @priority, @createdAt, @visibility, @input, @wrappedKey)`,
      ),
      nameTaken: db.prepare<[string, string], { x: number }>(
        `SELECT 1 AS x FROM jobs WHERE COALESCE(owner, '') = ? AND name = ?`,
      ),
      get: db.prepare<[string], Raw>('SELECT * FROM jobs WHERE id = ?'),
      byOwner: db.prepare<[string], Raw>('SELECT * FROM jobs WHERE owner = ? ORDER BY seq'),
      next: db.prepare<[], Raw>(
        `SELECT * FROM jobs WHERE status = 'Pending' AND needs_key = 0 ORDER BY priority DESC, seq LIMIT 1`,
      ),
      start: db.prepare(
        `UPDATE jobs SET status = 'Processing', attempts = attempts + 1, started_at = ?
         WHERE id = ? AND status = 'Pending' AND needs_key = 0`,
      ),
      finish: db.prepare(
        `UPDATE jobs SET status = ?, finished_at = ? WHERE id = ? AND status IN ('Pending', 'Processing')`,
      ),
      putResult: db.prepare('INSERT OR REPLACE INTO job_results (job_id, body) VALUES (?, ?)'),
      result: db.prepare<[string], { body: Buffer }>('SELECT body FROM job_results WHERE job_id = ?'),
      requeue: db.prepare(`UPDATE jobs SET status = 'Pending' WHERE id = ? AND status = 'Processing'`),
      unstart: db.prepare(
        `UPDATE jobs SET status = 'Pending', attempts = attempts - 1 WHERE id = ? AND status = 'Processing'`,
      ),
      interrupted: db.prepare<[], Raw>(`SELECT * FROM jobs WHERE status = 'Processing'`),
      park: db.prepare(
        `UPDATE jobs SET needs_key = 1 WHERE visibility = 'private' AND status IN ('Pending', 'Processing')`,
      ),
      parkOne: db.prepare('UPDATE jobs SET needs_key = 1 WHERE id = ?'),
      arm: db.prepare(`UPDATE jobs SET needs_key = 0 WHERE id = ? AND status = 'Pending'`),
      delete: db.prepare('DELETE FROM jobs WHERE id = ?'),
      expired: db.prepare<[number, number, number], { seq: number; id: string }>(
        `SELECT seq, id FROM jobs WHERE owner IS NULL AND status IN ('Completed', 'Failed')
         AND COALESCE(finished_at, created_at) < ? AND seq > ? ORDER BY seq LIMIT ?`,
      ),
      unfinishedPublic: db.prepare<[], Raw>(
        `SELECT * FROM jobs WHERE visibility = 'public' AND status IN ('Pending', 'Processing')`,
      ),
    };
  }

  /** Inserts a job named by the first name `pick(attempt)` proposes that its owner has not used. */
  insert(job: NewJob, pick: (attempt: number) => string): JobRow {
    return this.db.transaction((): JobRow => {
      let name = pick(0);
      for (let attempt = 1; this.s.nameTaken.get(job.owner ?? '', name) !== undefined; attempt++) {
        name = pick(attempt);
      }
      this.s.insert.run({ ...job, name });
      return toRow(this.s.get.get(job.id)!);
    })();
  }

  get(id: string): JobRow | null {
    const r = this.s.get.get(id);
    return r === undefined ? null : toRow(r);
  }

  listByOwner(owner: string): JobRow[] {
    return this.s.byOwner.all(owner).map(toRow);
  }

  /** Moves the highest-priority, oldest runnable job to Processing and returns it. */
  claimNext(now: number, runnable: (row: JobRow) => boolean): JobRow | null {
    return this.db.transaction((): JobRow | null => {
      for (;;) {
        const raw = this.s.next.get();
        if (raw === undefined) return null;
        const row = toRow(raw);
        if (!runnable(row)) {
          this.s.parkOne.run(row.id);
          continue;
        }
        this.s.start.run(now, row.id);
        return { ...row, status: 'Processing', attempts: row.attempts + 1 };
      }
    })();
  }

  /** Records a final status and result unless the job already finished or is gone. */
  finish(id: string, status: 'Completed' | 'Failed', result: Buffer, now: number): boolean {
    return this.db.transaction((): boolean => {
      if (this.s.finish.run(status, now, id).changes !== 1) return false;
      this.s.putResult.run(id, result);
      return true;
    })();
  }

  result(id: string): Buffer | null {
    return this.s.result.get(id)?.body ?? null;
  }

  /** Puts a Processing job back in the queue; `uncount` when the stop was not the job's fault. */
  requeue(id: string, uncount: boolean): boolean {
    return (uncount ? this.s.unstart : this.s.requeue).run(id).changes === 1;
  }

  /** Jobs a previous process left in Processing. */
  interrupted(): JobRow[] {
    return this.s.interrupted.all().map(toRow);
  }

  /** Marks every unfinished private job as waiting for its owner's key (done at open). */
  parkPrivate(): number {
    return this.s.park.run().changes;
  }

  /** A parked private job becomes runnable again (its owner key is back in memory). */
  arm(id: string): boolean {
    return this.s.arm.run(id).changes === 1;
  }

  /**
   * Up to `limit` finished jobs without owner that finished before `before`, after `afterSeq`
   * in creation order. Unfinished jobs are never among them.
   */
  expiredPublic(before: number, afterSeq: number, limit: number): { seq: number; id: string }[] {
    return this.s.expired.all(before, afterSeq, limit);
  }

  /** Public jobs still waiting or running (their inputs name the files they will read). */
  unfinishedPublic(): JobRow[] {
    return this.s.unfinishedPublic.all().map(toRow);
  }

  /** Deletes the jobs (their results cascade) if `check` accepts every row; see FileTable. */
  deleteAllIf(ids: readonly string[], check: (row: JobRow | null) => boolean): string | null {
    return this.db.transaction((): string | null => {
      for (const id of ids) if (!check(this.get(id))) return id;
      for (const id of ids) this.s.delete.run(id);
      return null;
    })();
  }
}
