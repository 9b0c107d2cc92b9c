/**
 * Report inputs from generated logs, through the same pipeline `tae analyze --sigma` runs: the
 * example story and the hostile log (markup, script, URLs and DOT syntax in event fields), each
 * with the community Sigma rules' matches; the hostile one also gets a rule whose own text is
 * hostile. The noisy host's graph has summary nodes, one of them of processes with a hostile name.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEvtx } from '../../fixtures/evtx-writer/index.js';
import { exampleEvents } from '../../fixtures/example-events.js';
import { hostileEvents, PAYLOADS } from '../../fixtures/hostile-events.js';
import { noisyHostEvents } from '../../fixtures/stories/index.js';
import { guid, u32 } from '../../fixtures/stories/sources.js';
import { TERMINAL_HOSTILE, terminalHostileEvents } from '../../fixtures/terminal-hostile-events.js';
import { reportRules } from '../../src/cli/analyze-output.js';
import { analyzeFiles } from '../../src/cli/analyze-run.js';
import { loadSigmaRules } from '../../src/cli/sigma-rules.js';
import type { ReportInput, ReportRule } from '../../src/report/index.js';

/** 2024-05-01 10:00:00 UTC: reports built for tests carry this time. */
export const REPORT_TIME = Date.UTC(2024, 4, 1, 10);

async function analyzed(
  name: string,
  bytes: Uint8Array,
  title: string,
): Promise<ReportInput & { sigmaRules: ReportRule[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'tae-report-'));
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const sigma = await loadSigmaRules({ data: join(dir, 'no-library') });
  const result = await analyzeFiles({ files: [file], sigma, threads: 0 });
  // The temporary directory must not reach the pinned output: name the file as given.
  const insights = JSON.parse(JSON.stringify(result.insights).replaceAll(`${dir}/`, ''));
  const sigmaRules = reportRules(result.detections).map((r) => ({
    ...r,
    sample: r.sample.map((m) => ({ ...m, ...(m.file ? { file: name } : {}) })),
  }));
  return { title, generatedAt: REPORT_TIME, insights, sigmaRules, sigmaRan: true };
}

export const exampleReportInput = () =>
  analyzed('example.evtx', writeEvtx(exampleEvents()), 'Threat analysis: example.evtx');

/** The log whose every string field holds controls, ESC sequences and bidi overrides. */
export const terminalReportInput = () =>
  analyzed('terminal.evtx', writeEvtx(terminalHostileEvents()), `Report ${TERMINAL_HOSTILE}`);

export async function hostileReportInput(): Promise<ReportInput> {
  const input = await analyzed('hostile.evtx', writeEvtx(hostileEvents()), `Report ${PAYLOADS.script}`);
  const rule: ReportRule = {
    title: `Rule ${PAYLOADS.image}`,
    level: `high"><script>document.title='pwned'</script>`,
    description: PAYLOADS.style,
    author: PAYLOADS.comment,
    tags: [PAYLOADS.script],
    references: ['http://127.0.0.1:9/ref', 'javascript:document.title="pwned"'],
    falsepositives: [PAYLOADS.dot],
    source: PAYLOADS.image,
    matches: 1,
    sample: [
      {
        recordId: 2,
        timestamp: Date.UTC(2024, 4, 1, 10, 0, 5),
        computer: PAYLOADS.script,
        channel: PAYLOADS.image,
        file: PAYLOADS.comment,
      },
    ],
  };
  return { ...input, sigmaRules: [...input.sigmaRules, rule] };
}

/** An image name a summary lists: markup, an event handler, quotes, an ampersand. */
export const HOSTILE_IMAGE = `<img src=x onerror=alert(1)>"'&amp;.exe`;

/**
 * The noisy host (392 processes where 150 fit, so its graph has summaries) and 5 more children of
 * its services.exe named HOSTILE_IMAGE, which the optimiser summarises like the svchost.exe ones.
 */
export function summaryReportInput(): Promise<ReportInput> {
  const events = noisyHostEvents();
  const first = events[0]!; // services.exe starting the first svchost.exe
  const extra = Array.from({ length: 5 }, (_, i) => ({
    ...first,
    eventData: {
      ...first.eventData,
      ProcessGuid: guid(`000fff0${i}-0000-65f1-1a02-000000001700`),
      ProcessId: u32(9000 + i * 4),
      Image: `C:\\Temp\\${HOSTILE_IMAGE}`,
      CommandLine: HOSTILE_IMAGE,
    },
  }));
  return analyzed('noisy.evtx', writeEvtx([...events, ...extra]), 'Threat analysis: noisy.evtx');
}

/** A Process Inference Graph insight around DOT text, with `summary_N` members if any. */
export const graphInsight = (dot: string, summaries: Readonly<Record<string, string[]>> = {}) => ({
  Graph: {
    title: 'Process Inference Graph',
    data: dot,
    category: 'Process',
    graph_metadata: { _stats_original_nodes: [], _stats_optimized_nodes: [], ...summaries },
  },
});
