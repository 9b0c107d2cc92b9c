/**
 * Run inside a small disk's mount namespace (index-no-space.test.ts; SQLite resolves the
 * `/proc/<pid>/root` path the test process would use): stages events through a writer thread
 * into DIR until the disk is full, then aborts the build. Prints JSON: whether the staging met
 * the full disk, the bytes free before the build and right after `await abort()`, and the files left.
 */
import { mkdirSync, readdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { isNoSpace } from '../../src/errors/index.js';
import type { EvtxEvent } from '../../src/evtx/index.js';
import { parseEvtx } from '../../src/parse/index.js';
import { EventIndexBuilder } from '../../src/search/index.js';
import { manyEventsLog } from './small-log.js';

const dir = join(process.argv[2]!, 'indexes');
mkdirSync(dir);
const free = () => {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
};
const events: EvtxEvent[] = [];
for await (const r of parseEvtx(manyEventsLog(600), { threads: 0 }))
  if (r.event !== undefined) events.push(r.event);
const before = free();
const b = new EventIndexBuilder(
  { path: join(dir, 'job.sqlite'), key: Buffer.alloc(32, 7) },
  { sigma: false, writerThreadFrom: 256 },
);
let failure: unknown;
try {
  // Each pass stages 600 events (about 1.2 MB): the disk is full within a few.
  for (let pass = 0; pass < 50 && failure === undefined; pass++) {
    for (const e of events) b.add(e, 'many.evtx', []);
    await b.ready();
  }
} catch (e) {
  failure = e;
}
await b.abort();
const after = free();
console.log(
  JSON.stringify({
    noSpace: isNoSpace(failure),
    failure: String(failure),
    before,
    after,
    left: readdirSync(dir),
  }),
);
