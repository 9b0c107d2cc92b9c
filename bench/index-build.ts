/**
 * The event index build alone, on one EVTX file's decoded events (default the 100 MB job
 * bench file): time to stage (`add`) and to finish (on this thread), bytes per event, and the
 * rebuild of the whole range. Decoding is done first and not timed.
 *   node --import tsx bench/index-build.ts [--file F] [--key] [--rounds N]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../native/sqlite.js';
import { newDataKey } from '../src/crypto/index.js';
import type { EvtxEvent } from '../src/evtx/index.js';
import { eventDescriber } from '../src/lookup/index.js';
import { parseEvtx } from '../src/parse/index.js';
import { EventIndex, EventIndexBuilder, rebuildInsights } from '../src/search/index.js';
import { benchArgs, numberArg } from './args.js';

const USAGE = `
usage: node --import tsx bench/index-build.ts [--file F] [--key] [--rounds N]
  --file F     the EVTX file (default .bench-out/job-100M-seed1.evtx, made by the job bench)
  --key        build encrypted, as a private job does
  --rounds N   rounds, the median reported (default 3)
One JSON object per line.`;
const { values: opts } = benchArgs(USAGE, {
  options: {
    file: { type: 'string', default: join(import.meta.dirname, '..', '.bench-out', 'job-100M-seed1.evtx') },
    key: { type: 'boolean' },
    rounds: { type: 'string', default: '3' },
  },
});
const describe = eventDescriber();
const events: EvtxEvent[] = [];
for await (const r of parseEvtx(opts.file)) if (r.event) events.push(r.event);
const rules = [{ title: 'Bench Rule', level: 'high', tags: [] }];
for (let round = 0; round < numberArg('--rounds', opts.rounds, { min: 1, integer: true }); round++) {
  const dir = mkdtempSync(join(tmpdir(), 'tae-bench-build-'));
  try {
    const key = opts.key ? newDataKey() : null;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const b = new EventIndexBuilder(
      { path: join(dir, 'i.sqlite'), key },
      { sigma: true, describe, worker: false },
    );
    for (const [i, e] of events.entries()) b.add(e, 'bench.evtx', i % 50 === 0 ? rules : []);
    const t1 = performance.now();
    await b.finish();
    const t2 = performance.now();
    const c2 = process.cpuUsage(c0);
    const db = openSqlite(join(dir, 'i.sqlite'), { readonly: true, ...(key === null ? {} : { key }) });
    const t3 = performance.now();
    rebuildInsights(EventIndex.of(db), { start: null, end: null, describe });
    const t4 = performance.now();
    db.close();
    console.log(
      JSON.stringify({
        events: events.length,
        key: key !== null,
        addMs: Math.round(t1 - t0),
        finishMs: Math.round(t2 - t1),
        // CPU time of the whole build (this thread does it all): steadier than wall time on a busy machine.
        buildCpuMs: Math.round((c2.user + c2.system) / 1000),
        rebuildMs: Math.round(t4 - t3),
        bytesPerEvent: Math.round(statSync(join(dir, 'i.sqlite')).size / events.length),
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
