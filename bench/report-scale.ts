/**
 * Issue 47's acceptance 1 as figures: `tae analyze` (the built CLI) over a folder of EVTX files
 * with Sigma rules writes the HTML report, which headless Chromium then loads; prints one JSON
 * line per case: the case, the analysis time, the report's bytes, DOMContentLoaded and load, the
 * page's height at 1,400 and 900 px, where the level × host summary starts, the detection rows
 * drawn and the toggles opened (test/helpers/report-scale.ts measures).
 *   npm run build && node --import tsx bench/report-scale.ts [EVTX_DIR RULES_DIR]
 * Default: the corpus attack samples with the SigmaHQ rules (<shared>/corpus), when present, then
 * the generated 50-host incident (fixtures/stories/fleet.ts) with the builtin rules.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI } from '../test/helpers/cli-binary.js';
import { CORPUS } from '../test/helpers/corpus.js';
import { measureReport, writeFleetCase } from '../test/helpers/report-scale.js';
import { benchArgs, refuse } from './args.js';

const USAGE = `
usage: node --import tsx bench/report-scale.ts [EVTX_DIR RULES_DIR]
  EVTX_DIR    folder of EVTX files (default: the corpus attack samples, then a generated case)
  RULES_DIR   Sigma rules (default: the corpus's SigmaHQ rules/)
Prints one JSON line per case: "given" (the two folders), or "corpus" (when present) and
"generated" (50 hosts, about 25,000 events, builtin rules).`;
const args = benchArgs(USAGE, { allowPositionals: true }).positionals;
if (args.length !== 0 && args.length !== 2) refuse('give both folders or neither');
const dir = mkdtempSync(join(tmpdir(), 'tae-bench-report-scale-'));

async function measure(name: string, options: readonly string[], evtx: string, extra = {}): Promise<void> {
  const html = join(dir, `${name}.html`);
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'analyze', '-q', ...options, evtx, '--html', html], {
    encoding: 'utf8',
    env: { ...process.env, TAE_HOME: join(dir, 'home'), TAE_RULE_PACKS: '' },
  });
  const analyzeMs = Math.round(performance.now() - started);
  if (run.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    refuse(`tae analyze exited ${run.status}: ${run.stderr}`);
  }
  const f = await measureReport(html);
  console.log(
    JSON.stringify({
      case: name,
      ...extra,
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
}

try {
  if (args.length === 2) await measure('given', ['--rule', args[1]!], args[0]!);
  else {
    const samples = join(CORPUS, 'evtx', 'hayabusa-sample-evtx');
    const rules = join(CORPUS, 'sigma', 'rules');
    if (existsSync(samples) && existsSync(rules)) await measure('corpus', ['--rule', rules], samples);
    else process.stderr.write(`report-scale: no corpus at ${CORPUS}; the generated case alone\n`);
    const started = performance.now();
    const fleet = writeFleetCase(dir);
    const generateMs = Math.round(performance.now() - started);
    await measure('generated', ['--sigma'], fleet, { generate_ms: generateMs });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
