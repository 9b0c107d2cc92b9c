/**
 * The HTML report in headless Chromium (Debian `chromium`, driven by playwright-core): no
 * console errors (a CSP violation is one), no request but the file itself, no hostile script
 * run, the process graph drawn as SVG, the key event timeline filterable by category, importance
 * and text, every other table sortable by column and filterable by text. Screenshots go to
 * test-output/. Skips when /usr/bin/chromium is absent (layout and graph: report-browser-layout).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { buildReport } from '../src/report/index.js';
import { OUTPUT, open, SKIP, useChromium } from './helpers/report-browser.js';
import { exampleReportInput, hostileReportInput } from './helpers/report-inputs.js';

useChromium();

const visibleRows = (page: Page) => page.locator('#timeline-table tbody tr:visible');

test('the example report renders its graph and timeline with no console error or network request', {
  skip: SKIP,
}, async () => {
  const { page, errors } = await open('example.html', await buildReport(await exampleReportInput()));
  assert.equal(await page.title(), 'Threat analysis: example.evtx');
  const nodes = page.locator('#process-graph svg g.node');
  assert.ok((await nodes.count()) >= 10);
  const box = await page.locator('#process-graph svg').boundingBox();
  assert.ok(box !== null && box.width > 200 && box.height > 200, 'the graph has a size on screen');
  assert.equal(await visibleRows(page).count(), 18);
  assert.equal(await page.textContent('#tl-count'), '18 of 18 key events shown');

  await page.selectOption('#tl-category', 'Authentication');
  const auth = await visibleRows(page).evaluateAll((rows) =>
    rows.map((r) => r.getAttribute('data-category')),
  );
  assert.ok(auth.length > 0 && auth.length < 18);
  assert.ok(auth.every((c) => c === 'Authentication'));
  await page.selectOption('#tl-category', '');
  await page.selectOption('#tl-importance', '3');
  const ranks = await visibleRows(page).evaluateAll((rows) =>
    rows.map((r) => Number(r.getAttribute('data-rank'))),
  );
  assert.ok(ranks.length > 0 && ranks.every((r) => r >= 3));
  await page.selectOption('#tl-importance', '0');
  await page.fill('#tl-text', 'powershell');
  assert.ok((await visibleRows(page).count()) >= 1);
  assert.match((await page.textContent('#tl-count')) ?? '', /^\d+ of 18 key events shown$/);
  await page.fill('#tl-text', '');

  await page.screenshot({ path: join(OUTPUT, 'report-example.png') });
  await page.locator('#process-graph').screenshot({ path: join(OUTPUT, 'report-example-graph.png') });
  assert.deepEqual(errors, []);
});

test('the hostile report runs none of its payloads and fetches nothing', { skip: SKIP }, async () => {
  const input = await hostileReportInput();
  const { page, errors, dialogs } = await open('hostile.html', await buildReport(input));
  assert.equal(await page.title(), input.title);
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('img, iframe, image, a[href^="http"], a[href^="javascript"]').count(), 0);
  assert.equal(await page.locator('script').count(), 1);
  assert.ok((await page.locator('#process-graph svg g.node').count()) >= 2);
  assert.ok((await page.locator('body').innerText()).includes('WS-<b>HOSTILE</b>-01'));
  await page.screenshot({ path: join(OUTPUT, 'report-hostile.png'), fullPage: true });
  assert.deepEqual(errors, []);
});

/** A table the analyzer could produce, with numbers that sort wrong as text and a tie. */
const SORT_SAMPLE = {
  Table: {
    title: 'Process Analysis: Sort sample',
    category: 'Process',
    data: [
      ['Image', 'Count'],
      ['b.exe', '10'],
      ['a.exe', '9'],
      ['c.exe', '100'],
      ['d.exe', '9'],
      ['<b>e.exe</b>', ''],
    ],
  },
};

/** The first scroll box or filter box after the sample's heading: its own. */
const afterSample = (page: Page, what: string) =>
  page.locator(`h3:text-is("${SORT_SAMPLE.Table.title}") ~ ${what}`).first();

test('a report table sorts by a clicked column, numbers by value, stably, toggling asc and desc', {
  skip: SKIP,
}, async () => {
  const input = await exampleReportInput();
  const html = await buildReport({ ...input, insights: [...input.insights, SORT_SAMPLE] });
  const { page, errors } = await open('sort.html', html);
  page.setDefaultTimeout(5000);
  const rows = afterSample(page, '.scroll').locator('tbody tr');
  const column = (n: number) => rows.evaluateAll((rs, i) => rs.map((r) => r.children[i]!.textContent), n);
  const count = afterSample(page, '.scroll').locator('th:nth-child(2)');
  assert.deepEqual(await column(0), ['b.exe', 'a.exe', 'c.exe', 'd.exe', '<b>e.exe</b>']);
  await count.locator('button').click();
  assert.deepEqual(
    await column(0),
    ['a.exe', 'd.exe', 'b.exe', 'c.exe', '<b>e.exe</b>'],
    'ascending, ties kept',
  );
  assert.equal(await count.getAttribute('aria-sort'), 'ascending');
  await count.locator('button').click();
  assert.deepEqual(
    await column(0),
    ['c.exe', 'b.exe', 'a.exe', 'd.exe', '<b>e.exe</b>'],
    'descending, empty last',
  );
  assert.equal(await count.getAttribute('aria-sort'), 'descending');
  const image = afterSample(page, '.scroll').locator('th:nth-child(1)');
  await image.locator('button').click();
  assert.deepEqual(await column(0), ['<b>e.exe</b>', 'a.exe', 'b.exe', 'c.exe', 'd.exe']);
  assert.equal(await image.getAttribute('aria-sort'), 'ascending');
  assert.equal(await count.getAttribute('aria-sort'), 'none');
  assert.equal(await page.locator('main b').count(), 0, 'cell text is never parsed as markup');

  await page.locator('#timeline-table th:nth-child(4) button').click();
  const categories = await page
    .locator('#timeline-table tbody tr')
    .evaluateAll((rs) => rs.map((r) => r.children[3]!.textContent ?? ''));
  assert.deepEqual(
    categories,
    [...categories].sort((a, b) => a.localeCompare(b)),
  );
  assert.deepEqual(errors, []);
});

test('a report table filter hides rows without the text, case-insensitively, and counts the rest', {
  skip: SKIP,
}, async () => {
  const input = await exampleReportInput();
  const html = await buildReport({ ...input, insights: [...input.insights, SORT_SAMPLE] });
  const { page, errors } = await open('filter.html', html);
  const tables = await page.locator('main table').count();
  assert.equal(await page.locator('.table-filter input').count(), tables - 1, 'every table but the timeline');
  page.setDefaultTimeout(5000);
  const block = afterSample(page, '.table-filter');
  const shown = afterSample(page, '.scroll').locator('tbody tr:visible');
  assert.equal(await block.locator('.table-count').textContent(), '5 of 5 rows shown');
  await block.locator('input').fill('E.EX');
  assert.equal(await shown.count(), 1);
  assert.equal(await shown.first().locator('td').first().textContent(), '<b>e.exe</b>');
  assert.equal(await block.locator('.table-count').textContent(), '1 of 5 rows shown');
  await block.locator('input').fill('9');
  assert.equal(await block.locator('.table-count').textContent(), '2 of 5 rows shown');
  await block.locator('input').fill('');
  assert.equal(await shown.count(), 5);
  assert.deepEqual(errors, []);
});
