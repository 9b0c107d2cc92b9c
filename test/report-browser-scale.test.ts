/**
 * Issue 47's acceptance 1: the report of a real case, the corpus attack samples (593 files,
 * about 50 hosts) with the SigmaHQ rules, written by the built `tae analyze`, is at most 2 MB;
 * in headless Chromium at 1,400 px wide it shows the level × host summary on its first screen,
 * is at most 15,000 px tall as it opens, reaches DOMContentLoaded within 2 s, and every
 * collapsed part opens onto content (as does a rule's details panel). Before: 5.0 MB,
 * 342,892 px, 12–17 s. Skips without the corpus or Chromium; `bench/report-scale.ts` prints the
 * same figures.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ensureBuilt, runTae } from './helpers/cli-binary.js';
import { CORPUS } from './helpers/corpus.js';
import { CHROMIUM, measureReport } from './helpers/report-scale.js';

const SAMPLES = join(CORPUS, 'evtx', 'hayabusa-sample-evtx');
const RULES = join(CORPUS, 'sigma', 'rules');
const SKIP = !existsSync(SAMPLES)
  ? `corpus attack samples not found at ${SAMPLES}`
  : !existsSync(RULES)
    ? `SigmaHQ rules not found at ${RULES}`
    : !existsSync(CHROMIUM)
      ? `${CHROMIUM} not installed (apt-get install chromium)`
      : false;

const dir = mkdtempSync(join(tmpdir(), 'tae-report-scale-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the corpus case report is at most 2 MB, opens on the level × host summary, 15,000 px tall at most, loaded within 2 s, every part opening', {
  skip: SKIP,
  timeout: 300_000,
}, async () => {
  ensureBuilt();
  const html = join(dir, 'report.html');
  const run = runTae(dir, ['analyze', '-q', '--rule', RULES, SAMPLES, '--html', html]);
  assert.equal(run.status, 0, run.stderr);
  const f = await measureReport(html);
  console.log(
    `report ${f.bytes} bytes, DOMContentLoaded ${f.domContentLoadedMs} ms, load ${f.loadMs} ms, ` +
      `height ${f.height1400} px at 1400 (${f.height900} at 900), ${f.opened.length} toggles`,
  );
  assert.ok(f.bytes <= 2 * 1024 * 1024, `${f.bytes} bytes`);
  assert.ok(f.levelsTop < 1000, `the level × host table starts at ${f.levelsTop} px, below the first screen`);
  assert.ok(f.levelsRows >= 20, 'the hosts with findings are listed');
  assert.ok(f.height1400 <= 15_000, `${f.height1400} px tall`);
  assert.ok(f.domContentLoadedMs <= 2000, `DOMContentLoaded after ${f.domContentLoadedMs} ms`);
  assert.equal(f.detectionRows, 50, 'one page of detections is drawn, not every match');
  assert.ok(f.opened.length >= 6, 'the large sections, the coverage and the rules list are toggles');
  for (const o of f.opened) assert.ok(o.height > 0, `"${o.summary}" opens onto nothing`);
  assert.ok(f.rulePanel, "a rule's details open from the detections table");
  assert.deepEqual(f.errors, []);
});
