/**
 * The report's common folder when the Overview's file list arrives cut: `tae analyze` clips that
 * text at 20,000 characters, so a long case's list ends in part of a path and `…`. That piece is
 * no file; taken as one, it shrank the folder every file name is shown relative to (the
 * generated 50-host case under a long temporary folder: `/tmp/` instead of its own folder, and
 * 8 KB more report).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Insight } from '../src/insights/index.js';
import { buildReport } from '../src/report/index.js';

const FOLDER = '/cases/tae-bench-report-scale-1WHob1/fleet/';

test('a file list cut in the middle of a path still names the case folder as the common one', async () => {
  const lines = Array.from({ length: 200 }, (_, i) => `${FOLDER}WS-${i}/Security.evtx: 248 records`);
  const files = `${lines.join('\n')}\n/cases/tae-bench-rep…`;
  const overview = {
    Metadata: { title: 'Overview', category: 'overview', data: { files, records: '49600' } },
  } as Insight;
  const html = await buildReport({ insights: [overview] });
  assert.match(html, /200 files under <code>\/cases\/tae-bench-report-scale-1WHob1\/fleet\/<\/code>/);
  assert.match(html, /<li>WS-0\/Security\.evtx <span class="note">248 records<\/span><\/li>/);
  assert.doesNotMatch(html, /tae-bench-rep…/);
});
