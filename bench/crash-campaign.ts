/**
 * The kill -9 campaign against a real `tae serve`: clients upload, create parse jobs (with and
 * without Sigma), search completed jobs and delete files and jobs, while the server is killed
 * with SIGKILL at random moments (during uploads, job runs and index builds, deletes, retention
 * sweeps of anonymous files, and start-up recovery itself) and restarted. After every restart
 * the listings must agree with the ledger; at the end every job must settle, every search of a
 * completed job must equal its first answer, every acknowledged file must read back byte-exact
 * and no temporary or build file may be left.
 */
import { join } from 'node:path';
import { allFiles } from '../test/helpers/marker-scan.js';
import { type FileEntry, type JobEntry, Ledger, sha256 } from './crash-ledger.js';
import { type ServeProcess, startServe } from './serve-process.js';
import { type Auth, ServiceClient } from './service-client.js';
import { verifyStoredFiles } from './stored-files.js';

export interface CrashOptions {
  readonly dataDir: string;
  readonly seconds: number;
  readonly pick: () => number;
  /** Generated EVTX logs of several sizes to upload. */
  readonly logs: readonly Uint8Array[];
  /** Tokens with their keys: their files are private, and the stopped server's are read back with them. */
  readonly owners: readonly Auth[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SETTLE_MS = 300_000;
const SERVE_ARGS = ['--public-ttl', '1m'];

export async function crashCampaign(o: CrashOptions) {
  const ledger = new Ledger(o.owners);
  let server: ServeProcess = await startServe(o.dataDir, SERVE_ARGS);
  const client = new ServiceClient(server.url);
  const stats = { kills: 0, restarts: 0, uploads: 0, jobsCreated: 0, deletes: 0, searchesCompared: 0 };
  const searchesDiffer: string[] = [];
  const anyOf = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(o.pick() * xs.length)];
  let up: Promise<void> = Promise.resolve();
  const end = Date.now() + o.seconds * 1000;

  async function act(): Promise<void> {
    const owner = Math.floor(o.pick() * (o.owners.length + 1)); // the last is anonymous
    const auth: Auth = o.owners[owner] ?? {};
    const r = o.pick();
    if (r < 0.4) {
      const files = Array.from({ length: 1 + Math.floor(o.pick() * 3) }, (_, i) => ({
        name: `upload-${stats.uploads}-${i}.evtx`,
        bytes: anyOf(o.logs)!,
      }));
      const a = await client.upload(auth, files);
      if (a?.body == null) return;
      stats.uploads++;
      if (owner >= o.owners.length) return; // anonymous: swept by retention, nobody lists them
      for (const [i, [id]] of a.body.file_ids.entries())
        ledger.files.set(id, { id, owner, sha256: sha256(files[i]!.bytes), state: 'live' });
    } else if (owner >= o.owners.length) {
      await client.jobs(auth);
    } else if (r < 0.65) {
      const file = anyOf(ledger.live(ledger.files, owner));
      if (file === undefined) return;
      const a = await client.parse(auth, [file.id], o.pick() < 0.5);
      if (a?.body == null) return;
      stats.jobsCreated++;
      ledger.jobs.set(a.body.id, { id: a.body.id, owner, state: 'live' });
    } else if (r < 0.85) {
      const job = anyOf(ledger.live(ledger.jobs, owner));
      if (job !== undefined) await compareSearch(job, auth);
    } else {
      const entry: FileEntry | JobEntry | undefined =
        o.pick() < 0.7 ? anyOf(ledger.live(ledger.files, owner)) : anyOf(ledger.live(ledger.jobs, owner));
      if (entry === undefined) return;
      entry.state = 'deleting';
      const a = ledger.files.has(entry.id)
        ? await client.deleteFiles(auth, [entry.id])
        : await client.deleteJobs(auth, [entry.id]);
      if (a === null) return; // unknown: the next listing decides
      entry.state = a.status === 200 ? 'deleted' : 'live';
      if (a.status === 200) stats.deletes++;
    }
  }

  async function compareSearch(job: JobEntry, auth: Auth): Promise<void> {
    const status = await client.job(auth, job.id);
    if (status?.body?.status !== 'Completed') return;
    const a = await client.search(auth, job.id, 'svchost');
    if (a === null || a.status !== 200 || job.state !== 'live') return;
    if (job.search === undefined) job.search = a.text;
    else if (a.text !== job.search) searchesDiffer.push(job.id);
    else stats.searchesCompared++;
  }

  async function actor(): Promise<void> {
    while (Date.now() < end) {
      await up;
      await act();
    }
  }

  async function killer(): Promise<void> {
    while (Date.now() < end) {
      await sleep(300 + o.pick() * 3700);
      let restarted!: () => void;
      up = new Promise((r) => (restarted = r));
      await server.kill();
      stats.kills++;
      // Sometimes kill the next start too, during its recovery.
      while (o.pick() < 0.15) {
        const early = startServe(o.dataDir, SERVE_ARGS).catch(() => null);
        await sleep(o.pick() * 400);
        const s = await early;
        if (s === null) break;
        await s.kill();
        stats.kills++;
        stats.restarts++;
      }
      server = await startServe(o.dataDir, SERVE_ARGS);
      stats.restarts++;
      client.base = server.url;
      await ledger.check(client);
      restarted();
    }
  }

  await Promise.all([killer(), actor(), actor(), actor()]);
  await server.kill();
  stats.kills++;
  server = await startServe(o.dataDir, SERVE_ARGS);
  stats.restarts++;
  client.base = server.url;
  await ledger.check(client);
  const settled = await settle(ledger, client, o.owners);
  for (const job of ledger.jobs.values())
    if (job.state === 'live') await compareSearch(job, o.owners[job.owner]!);
  const stopped = await server.stop();
  const stored = await verifyStoredFiles(o.dataDir, ledger, o.owners);
  return {
    ...stats,
    filesAcknowledged: ledger.files.size,
    filesLost: ledger.findings.filesLost.length,
    deletedBack: ledger.findings.deletedBack.length,
    jobsLost: ledger.findings.jobsLost.length,
    jobsBack: ledger.findings.jobsBack.length,
    searchesDiffer: searchesDiffer.length,
    ...settled,
    ...stored,
    leftovers: leftovers(o.dataDir),
    serverExitCode: stopped,
    tally: client.tally,
    serverErrors: client.serverErrors,
    refusals: client.refusals,
  };
}

/** Waits for every live job to be Completed or Failed; counts those that never settle. */
async function settle(ledger: Ledger, client: ServiceClient, owners: readonly Auth[]) {
  const deadline = Date.now() + SETTLE_MS;
  const finals = { jobsCompleted: 0, jobsFailed: 0, jobsStuck: 0, failures: {} as Record<string, number> };
  for (const job of ledger.jobs.values()) {
    if (job.state !== 'live') continue;
    for (;;) {
      const s = await client.job(owners[job.owner]!, job.id);
      const status = s?.body?.status;
      if (status === 'Completed') finals.jobsCompleted++;
      else if (status === 'Failed') {
        finals.jobsFailed++;
        const why = JSON.stringify(s!.body!.insights?.[0] ?? '').slice(0, 120);
        finals.failures[why] = (finals.failures[why] ?? 0) + 1;
      } else if (Date.now() > deadline) finals.jobsStuck++;
      else {
        await sleep(100);
        continue;
      }
      break;
    }
  }
  return finals;
}

/** Temporary, staging, block and journal files left in the data directory after a graceful stop. */
function leftovers(dataDir: string): string[] {
  const tmp = join(dataDir, 'tmp');
  return allFiles(dataDir).filter(
    (f) => /\.stage$|\.block-\d+$|-journal$|-wal$/.test(f) || f.startsWith(`${tmp}/`),
  );
}
