/**
 * Lookup latency: builds the built-in dataset once (reported), then times a mix of realistic
 * queries (event ids, partial ids, text, filters, file names, deep pages). Prints one JSON line
 * per query kind and a summary line with overall p50/p95 in milliseconds (target p95 < 10 ms).
 *   node --import tsx bench/lookup.ts [--rounds N]
 */
import { performance } from 'node:perf_hooks';
import { builtinLookupDataset, type LookupRequest, lookupSync as lookup } from '../src/lookup/index.js';
import { benchArgs, numberArg } from './args.js';

const USAGE = `
usage: node --import tsx bench/lookup.ts [--rounds N]
  --rounds N   times each query kind is run (default 200)
One JSON line per query kind, then a summary line (p50/p95 in ms).`;
const { values } = benchArgs(USAGE, { options: { rounds: { type: 'string', default: '200' } } });
const ROUNDS = numberArg('--rounds', values.rounds, { min: 1, integer: true });

const QUERIES: Record<string, LookupRequest> = {
  'event id exact': { search: '4624', module: 'event_id' },
  'event id partial': { search: '46', module: 'event_id', show: 100 },
  'event text': { search: 'scheduled task', module: 'event_id' },
  'event filters': {
    search: '',
    module: 'event_id',
    filter: [
      { field: 'Provider', operator: 'equals', value: 'Microsoft-Windows-Sysmon' },
      { field: 'Data Fields', operator: 'contains', value: 'ParentUser' },
    ],
  },
  'event deep page': { search: 'e', module: 'event_id', page: 10, show: 100 },
  'file exact': { search: 'rundll32.exe', module: 'file_name' },
  'file partial': { search: 'crypt', module: 'file_name', show: 100 },
  'file filter': {
    search: '',
    module: 'file_name',
    filter: [{ field: 'File Path', operator: 'starts_with', value: 'C:\\Windows\\SysWOW64' }],
    show: 100,
  },
  'file miss': { search: 'definitely-not-a-windows-binary', module: 'file_name' },
};

const pct = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const round = (ms: number) => Number(ms.toFixed(4));

const t0 = performance.now();
const counts = builtinLookupDataset().counts();
console.log(
  JSON.stringify({
    bench: 'lookup',
    name: 'build built-in dataset',
    ms: round(performance.now() - t0),
    rows: counts,
  }),
);

for (let i = 0; i < 20; i++) for (const q of Object.values(QUERIES)) lookup(q); // warm-up

const all: number[] = [];
for (const [name, q] of Object.entries(QUERIES)) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const s = performance.now();
    rows = lookup(q).rows.length;
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  console.log(
    JSON.stringify({
      bench: 'lookup',
      name,
      rounds: ROUNDS,
      rows,
      p50Ms: round(pct(times, 50)),
      p95Ms: round(pct(times, 95)),
    }),
  );
}
all.sort((a, b) => a - b);
const p95 = pct(all, 95);
console.log(
  JSON.stringify({
    bench: 'lookup',
    name: 'all queries',
    samples: all.length,
    p50Ms: round(pct(all, 50)),
    p95Ms: round(p95),
    targetP95Ms: 10,
    withinTarget: p95 < 10,
  }),
);
