/**
 * The load run against a real `tae serve`: many clients for a time budget, each uploading a
 * generated log (with a token and key, with a token alone, or anonymously), creating a parse
 * job, polling it to the end, searching it, listing and deleting. Every answer is tallied by
 * status class: a 5xx, a request left unanswered or a job that never settles is a failure.
 */
import { startServe } from './serve-process.js';
import { type Auth, ServiceClient } from './service-client.js';

export interface LoadOptions {
  readonly dataDir: string;
  readonly seconds: number;
  readonly clients: number;
  readonly logs: readonly Uint8Array[];
  readonly owners: readonly Auth[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const JOB_WAIT_MS = 120_000;

export async function loadCampaign(o: LoadOptions) {
  const server = await startServe(o.dataDir);
  const client = new ServiceClient(server.url);
  const end = Date.now() + o.seconds * 1000;
  const stats = { rounds: 0, jobsCompleted: 0, jobsFailed: 0, jobsUnsettled: 0 };
  const latencies: number[] = [];

  async function round(i: number, n: number): Promise<void> {
    const auth: Auth = o.owners[(i + n) % (o.owners.length + 1)] ?? {};
    const started = performance.now();
    const up = await client.upload(auth, [
      { name: `load-${i}-${n}.evtx`, bytes: o.logs[n % o.logs.length]! },
    ]);
    latencies.push(performance.now() - started);
    const fileId = up?.body?.file_ids[0]?.[0];
    if (fileId === undefined) return;
    const job = await client.parse(auth, [fileId], n % 3 === 0);
    const jobId = job?.body?.id;
    if (jobId === undefined) return;
    const deadline = Date.now() + JOB_WAIT_MS;
    for (;;) {
      const s = await client.job(auth, jobId);
      const status = s?.body?.status;
      if (status === 'Completed') stats.jobsCompleted++;
      else if (status === 'Failed') stats.jobsFailed++;
      else if (s === null || Date.now() > deadline) stats.jobsUnsettled++;
      else {
        await sleep(50);
        continue;
      }
      break;
    }
    await client.search(auth, jobId, 'powershell');
    if (auth.token !== undefined) {
      await client.jobs(auth);
      await client.files(auth);
      if (n % 2 === 0) {
        await client.deleteJobs(auth, [jobId]);
        await client.deleteFiles(auth, [fileId]);
      }
    }
    stats.rounds++;
  }

  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.clients }, async (_, i) => {
      for (let n = 0; Date.now() < end; n++) await round(i, n);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const stopped = await server.stop();
  latencies.sort((a, b) => a - b);
  const requests = Object.values(client.tally).reduce((a, b) => a + b, 0);
  return {
    clients: o.clients,
    seconds: Math.round(seconds),
    requests,
    ...stats,
    uploadP50Ms: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    uploadP95Ms: Math.round(latencies[Math.floor(latencies.length * 0.95)] ?? 0),
    tally: client.tally,
    serverErrors: client.serverErrors,
    refusals: client.refusals,
    serverExitCode: stopped,
  };
}
