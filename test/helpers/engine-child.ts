/**
 * A child process running the engine on a data directory, for the crash test, which kills
 * it with SIGKILL. It reports on stdout, one JSON object per line (pipes are written
 * synchronously on Linux, so a line read by the parent happened before the kill).
 *
 *   node --import tsx test/helpers/engine-child.ts DATA_DIR upload|jobs ENC_KEY
 *
 * upload: uploads 2 MiB files forever, alternately private and public, each as a stream of
 *   64 KiB chunks 2 ms apart; prints {uploading: i} before and {uploaded: id, …} after each.
 * jobs: uploads a small EVTX file (public and private), then queues 8 parse jobs, alternately
 *   public and private, on one worker; each job waits 150 ms before the real winevtx runner
 *   runs, so the kill can land mid-job. Prints {created: id, …} and {status: id, …} lines.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWinevtxRunner, type JobRunner } from '../../src/jobs/index.js';
import { Engine } from '../../src/service/index.js';
import { smallLog } from './small-log.js';

const [dataDir, scenario, encKey] = process.argv.slice(2) as [string, string, string];
const say = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

export const CHILD_FILE_BYTES = 2 * 1024 * 1024;

/** The content of upload number `i`: deterministic, so the parent can recompute its hash. */
export function childFileContent(i: number): Buffer {
  const b = Buffer.alloc(CHILD_FILE_BYTES);
  for (let at = 0; at < b.length; at += 4096)
    b.fill(createHash('sha256').update(`${i}:${at}`).digest(), at, at + 4096);
  return b;
}

async function* slowly(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    yield bytes.subarray(at, at + 64 * 1024);
    await sleep(2);
  }
}

async function uploads(): Promise<void> {
  const e = await Engine.open({ dataDir });
  const { token } = await e.createToken({ level: 'standard' });
  say({ token });
  for (let i = 0; ; i++) {
    const visibility = i % 2 === 0 ? 'private' : 'public';
    const content = childFileContent(i);
    say({ uploading: i });
    const up = await e.upload(
      { files: [{ name: `upload-${i}.bin`, data: slowly(content) }] },
      visibility === 'private' ? { token, encKey } : {},
    );
    say({ uploaded: up.file_ids[0]![0], i, visibility });
  }
}

async function jobs(): Promise<void> {
  const real = createWinevtxRunner();
  const delayed: JobRunner<'winevtx'> = async (input, ctx) => {
    await sleep(150, undefined, { signal: ctx.signal });
    return real(input, ctx);
  };
  const e = await Engine.open({
    dataDir,
    concurrency: 1,
    runners: { winevtx: delayed },
    onJobStatus: (ev) => say({ status: ev.id, is: ev.status }),
  });
  const { token } = await e.createToken({ level: 'premium' });
  say({ token });
  const pub = (await e.upload({ files: [{ name: 'pub.evtx', data: smallLog() }] })).file_ids[0]![0];
  const priv = (await e.upload({ files: [{ name: 'priv.evtx', data: smallLog() }] }, { token, encKey }))
    .file_ids[0]![0];
  for (let i = 0; i < 8; i++) {
    const visibility = i % 2 === 0 ? 'public' : 'private';
    const job = await e.createParseJob(
      { file_ids: visibility === 'public' ? [pub] : [priv], run_sigma_rules: false },
      visibility === 'public' ? { token } : { token, encKey },
    );
    say({ created: job.id, visibility });
  }
  await new Promise(() => {}); // run until killed
}

if (scenario === 'upload') await uploads();
else if (scenario === 'jobs') await jobs();
