// Decode EVTX files to JSON lines on stdout (plain ESM, no TypeScript).
//   node decode-jsonl.mjs Security.evtx [more.evtx …] > events.jsonl
// `batchText` hands over each 64 KiB chunk's JSON lines as one UTF-8 buffer: the fast path
// for writing files. Diagnostics (damaged chunks or records) go to stderr; decoding goes on.
import { once } from 'node:events';
import { isTaeError, parseEvtx } from 'threat-analysis-engine/evtx';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node decode-jsonl.mjs FILE.evtx…');
  process.exit(2);
}
try {
  for (const file of files) {
    const parse = parseEvtx(file, { outputs: ['json'], batchText: true, threads: 2 });
    for await (const chunk of parse.chunks()) {
      if (chunk.text && !process.stdout.write(chunk.text)) await once(process.stdout, 'drain');
    }
    for (const d of parse.diagnostics) console.error(`${d.file}: ${d.severity} ${d.code}: ${d.message}`);
    console.error(`${file}: ${parse.stats.records} records, ${parse.stats.bytes} bytes`);
  }
} catch (e) {
  // Every failure the library raises is a TaeError with a code to branch on.
  console.error(isTaeError(e) ? `${e.code}: ${e.message}` : e);
  process.exit(3);
}
