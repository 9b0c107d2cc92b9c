/**
 * Issue 47's acceptance 1 as figures: `tae analyze` (the built CLI) over a folder of EVTX files
 * with a Sigma rule folder writes the HTML report, which headless Chromium then loads; prints
 * one JSON line: the analysis time, the report's bytes, DOMContentLoaded and load, the page's
 * height at 1,400 and 900 px, where the level × host summary starts, the detection rows drawn
 * and the toggles opened (test/helpers/report-scale.ts measures).
 *   npm run build && node --import tsx bench/report-scale.ts [EVTX_DIR RULES_DIR]
 * Default: the corpus attack samples with the SigmaHQ rules (<shared>/corpus).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../test/helpers/cli-binary.js';
import { CORPUS } from '../test/helpers/corpus.js';
import { measureReport } from '../test/helpers/report-scale.js';
import { benchArgs, refuse } from './args.js';

const USAGE = `
usage: node --import tsx bench/report-scale.ts [EVTX_DIR RULES_DIR]
  EVTX_DIR    folder of EVTX files (default: the corpus attack samples)
  RULES_DIR   Sigma rules (default: the corpus's SigmaHQ rules/)
Prints one JSON line.`;
const args = benchArgs(USAGE, { allowPositionals: true }).positionals;
if (args.length !== 0 && args.length !== 2) refuse('give both folders or neither');
const evtx = args[0] ?? join(CORPUS, 'evtx', 'hayabusa-sample-evtx');
const rules = args[1] ?? join(CORPUS, 'sigma', 'rules');
const dir = mkdtempSync(join(tmpdir(), 'tae-bench-report-scale-'));
const html = join(dir, 'report.html');
const started = performance.now();
const run = spawnSync(process.execPath, [CLI, 'analyze', '-q', '--rule', rules, evtx, '--html', html], {
  encoding: 'utf8',
  env: { ...process.env, TAE_HOME: join(dir, 'home') },
});
const analyzeMs = Math.round(performance.now() - started);
if (run.status !== 0) refuse(`tae analyze exited ${run.status}: ${run.stderr}`);
const f = await measureReport(html);
rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    analyze_ms: analyzeMs,
    report_bytes: f.bytes,
    dom_content_loaded_ms: f.domContentLoadedMs,
    load_ms: f.loadMs,
    height_1400: f.height1400,
    height_900: f.height900,
    levels_top: Math.round(f.levelsTop),
    levels_rows: f.levelsRows,
    detection_rows: f.detectionRows,
    toggles_opened: f.opened.length,
    toggles_empty: f.opened.filter((o) => o.height <= 0).map((o) => o.summary),
    rule_panel: f.rulePanel,
    errors: f.errors,
  }),
);
