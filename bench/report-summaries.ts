/**
 * What the expandable summary nodes cost the HTML report at the graph's cap: the noisy host plus
 * N more children of one services.exe (40 images, so the optimiser makes ~40 large summaries),
 * analysed as `tae analyze` does; prints one JSON line with the summary count, the ids they
 * hold, the size of the embedded membership block and of the whole page.
 *   node --import tsx bench/report-summaries.ts [N]   (default 30000; the graph keeps 25,000)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEvtx } from '../fixtures/evtx-writer/index.js';
import { noisyHostEvents } from '../fixtures/stories/index.js';
import { guid, u32 } from '../fixtures/stories/sources.js';
import { analyzeFiles } from '../src/cli/analyze-run.js';
import { summaryDataBlock } from '../src/report/graph-members.js';
import { buildReport } from '../src/report/index.js';
import { benchArgs, numberArg, refuse } from './args.js';

const USAGE = `
usage: node --import tsx bench/report-summaries.ts [N]
  N   children added to one services.exe (default 30000; the graph keeps 25,000)
Prints one JSON line.`;
const [count, ...more] = benchArgs(USAGE, { allowPositionals: true }).positionals;
if (more.length > 0) refuse(`one count at most, not ${more.length + 1} arguments`);
const n = count === undefined ? 30_000 : numberArg('N', count, { min: 0, integer: true });
const events = noisyHostEvents();
const first = events[0]!; // services.exe starting a svchost.exe
const extra = Array.from({ length: n }, (_, i) => ({
  ...first,
  eventData: {
    ...first.eventData,
    ProcessGuid: guid(`${(0x200000 + i).toString(16).padStart(8, '0')}-0000-65f1-1a02-000000001700`),
    ProcessId: u32(100_000 + i * 4),
    Image: `C:\\Program Files\\Vendor\\worker-process-${i % 40}.exe`,
    CommandLine: `worker.exe --task ${i}`,
  },
}));
const dir = mkdtempSync(join(tmpdir(), 'tae-bench-report-'));
const file = join(dir, 'big.evtx');
writeFileSync(file, writeEvtx([...events, ...extra]));
const result = await analyzeFiles({ files: [file], threads: 0 });
rmSync(dir, { recursive: true, force: true });
const graph = result.insights.find((i) => 'Graph' in i) as unknown as {
  Graph: { graph_metadata: Record<string, string[]> };
};
const meta = graph.Graph.graph_metadata;
const keys = Object.keys(meta).filter((k) => k.startsWith('summary_'));
const started = performance.now();
const html = await buildReport({ title: 'bench', insights: result.insights });
const blockBytes = Buffer.byteLength(summaryDataBlock(meta));
console.log(
  JSON.stringify({
    processes: meta._stats_original_nodes!.length,
    summaries: keys.length,
    summarisedIds: keys.reduce((s, k) => s + meta[k]!.length, 0),
    largestSummary: Math.max(...keys.map((k) => meta[k]!.length)),
    blockBytes,
    pageBytes: Buffer.byteLength(html),
    pageBytesWithoutBlock: Buffer.byteLength(html) - blockBytes,
    buildMs: Math.round(performance.now() - started),
  }),
);
