/**
 * What the crash campaign's clients were told: each acknowledged upload (with its content's
 * hash), job and delete. After every restart the server must agree with it: an acknowledged
 * file or job is still listed, an acknowledged delete stays deleted; a request that got no
 * answer (killed under it) may have happened or not, and the next listing decides which.
 */
import { createHash } from 'node:crypto';
import type { Auth, ServiceClient } from './service-client.js';

export type EntryState = 'live' | 'deleting' | 'deleted';

export interface FileEntry {
  readonly id: string;
  readonly owner: number;
  readonly sha256: string;
  state: EntryState;
}

export interface JobEntry {
  readonly id: string;
  readonly owner: number;
  state: EntryState;
  /** The first search answer over the completed job: every later one must equal it. */
  search?: string;
}

export const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

export interface Findings {
  filesLost: string[];
  deletedBack: string[];
  jobsLost: string[];
  jobsBack: string[];
}

export class Ledger {
  readonly files = new Map<string, FileEntry>();
  readonly jobs = new Map<string, JobEntry>();
  readonly findings: Findings = { filesLost: [], deletedBack: [], jobsLost: [], jobsBack: [] };

  constructor(readonly owners: readonly Auth[]) {}

  live<T extends FileEntry | JobEntry>(map: Map<string, T>, owner: number): T[] {
    return [...map.values()].filter((e) => e.owner === owner && e.state === 'live');
  }

  /** Compares each owner's listings with what was acknowledged; false when the server did not answer. */
  async check(client: ServiceClient): Promise<boolean> {
    for (const [owner, auth] of this.owners.entries()) {
      const files = await client.files(auth);
      const jobs = await client.jobs(auth);
      if (files?.body == null || jobs?.body == null) return false;
      this.reconcile(
        this.files,
        owner,
        new Set(files.body.files.map((f) => f[0])),
        this.findings.filesLost,
        this.findings.deletedBack,
      );
      this.reconcile(
        this.jobs,
        owner,
        new Set(jobs.body.jobs.map((j) => j[0])),
        this.findings.jobsLost,
        this.findings.jobsBack,
      );
    }
    return true;
  }

  private reconcile<T extends FileEntry | JobEntry>(
    map: Map<string, T>,
    owner: number,
    listed: ReadonlySet<string>,
    lost: string[],
    back: string[],
  ): void {
    for (const e of map.values()) {
      if (e.owner !== owner) continue;
      const present = listed.has(e.id);
      if (e.state === 'live' && !present) {
        lost.push(e.id);
        e.state = 'deleting'; // counted once; the next listing says what became of it
      } else if (e.state === 'deleted' && present) {
        back.push(e.id);
        e.state = 'deleting';
      } else if (e.state === 'deleting') e.state = present ? 'live' : 'deleted';
    }
  }
}
