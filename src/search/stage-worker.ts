/**
 * The writer thread of one build (stager.ts): makes each staged row and inserts it, batch by
 * batch, in one transaction each; replies once per batch so the job's thread can pace itself.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { threadFailure } from '../errors/index.js';
import { eventDescriber } from '../lookup/index.js';
import { fromWire, type WireBatch } from './stage-wire.js';
import { openStage, type WriterReply } from './stager.js';

const { path, key, builtinDescribe } = workerData as {
  path: string;
  key: Uint8Array | null;
  builtinDescribe: boolean;
};
const port = parentPort!;
const reply = (m: WriterReply) => port.postMessage(m);

let stage: ReturnType<typeof openStage> | undefined;
try {
  // The job's thread made the staging file and staged the first events into it.
  stage = openStage(path, key, builtinDescribe ? eventDescriber() : undefined, false);
  reply({ kind: 'opened' });
} catch (e) {
  reply({ kind: 'failed', failure: threadFailure(e) });
} finally {
  key?.fill(0); // this thread's copy: SQLite keeps what it needs
}

type Request = { kind: 'write'; batch: WireBatch } | { kind: 'close' };

port.on('message', (m: Request) => {
  if (stage === undefined) return;
  try {
    if (m.kind === 'write') {
      const { events, duplicates } = fromWire(m.batch);
      stage.write(events, duplicates);
      reply({ kind: 'written' });
    } else {
      stage.db.close();
      stage = undefined;
      reply({ kind: 'closed' });
      port.close();
    }
  } catch (e) {
    stage = undefined;
    reply({ kind: 'failed', failure: threadFailure(e) });
  }
});
